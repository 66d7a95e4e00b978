//===- GraphGradient.cpp - Graph::gradient and Graph::trainingPair --------===//
//
// The gradient graph and the training pair of a uta::Graph: the graph's
// module is printed and parsed into each new graph's context, a
// transformation of passes/Transforms (uta-differentiate or
// uta-partition-training) builds the new function there, and the new graph
// adopts it as its function, its arguments and results as its inputs and
// outputs.
//
//===----------------------------------------------------------------------===//

#include "lib/API/GraphImpl.h"

#include "passes/Transforms/Passes.h"

#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace uta {

/// Builds graphs from the function of another graph.
struct GraphDerivation {
  /// Builds a function from `source`'s function in `result`'s context and
  /// makes it `result`'s function; records the first error in `result`.
  /// `build` returns the new function, or failure after an error.
  template <typename BuildFn>
  static void buildInto(const Graph &source, Graph &resultGraph, StringRef what,
                        BuildFn build);
};

template <typename BuildFn>
void GraphDerivation::buildInto(const Graph &source, Graph &resultGraph,
                                StringRef what, BuildFn build) {
  const Graph::Impl &sourceImpl = *source.impl_;
  Graph::Impl &result = *resultGraph.impl_;
  if (!source.ok()) {
    result.fail(what, "the graph has an error: " + source.error());
    return;
  }
  if (sourceImpl.outputs.empty()) {
    result.fail(what, "the graph has no outputs to differentiate");
    return;
  }
  std::string text = source.str();
  if (text.empty()) {
    result.fail(what, "the graph has an error: " + source.error());
    return;
  }

  std::string message;
  ScopedDiagnosticHandler handler(&result.context, [&](Diagnostic &diag) {
    if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &result.context);
  if (!module) {
    result.fail(what, "cannot read the graph back: " + message);
    return;
  }
  func::FuncOp sourceFunction = sourceImpl.func;
  auto function = module->lookupSymbol<func::FuncOp>(sourceFunction.getName());
  FailureOr<func::FuncOp> built = build(function);
  if (failed(built)) {
    result.fail(what, message);
    return;
  }
  // The new graph's module holds its function alone.
  for (auto other : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (other != *built)
      other.erase();
  built->setPublic();

  result.module = std::move(module);
  result.func = *built;
  result.returnOp =
      llvm::cast<func::ReturnOp>(result.func.getBody().front().getTerminator());
  for (BlockArgument argument : result.func.getArguments())
    result.inputs.push_back(result.makeTensor(argument));
  for (Value value : result.returnOp.getOperands())
    result.outputs.push_back(result.makeTensor(value));
}

Graph Graph::gradient(std::vector<unsigned> wrt, bool joint) const {
  Graph result(name() + (joint ? "_fwd_bwd" : "_vjp"));
  GraphDerivation::buildInto(*this, result, "gradient", [&](func::FuncOp f) {
    mlir::uta::DifferentiateOptions options;
    options.wrt.assign(wrt.begin(), wrt.end());
    options.joint = joint;
    return mlir::uta::buildGradientFunction(f, options);
  });
  return result;
}

TrainingPair Graph::trainingPair(std::vector<unsigned> wrt) const {
  TrainingPair pair{
      Graph(name() + "_forward"), Graph(name() + "_backward"), {}, 0};
  // Each half is built in its own graph's context; the partition is
  // deterministic, so both see the same residuals.
  for (bool backward : {false, true}) {
    Graph &half = backward ? pair.backward : pair.forward;
    GraphDerivation::buildInto(
        *this, half, "training pair",
        [&](func::FuncOp f) -> FailureOr<func::FuncOp> {
          mlir::uta::TrainingPairOptions options;
          options.wrt.assign(wrt.begin(), wrt.end());
          FailureOr<mlir::uta::TrainingPair> built =
              mlir::uta::buildTrainingPair(f, options);
          if (failed(built))
            return failure();
          pair.saved.assign(built->saved.begin(), built->saved.end());
          pair.numResiduals = built->numResiduals;
          return backward ? built->backward : built->forward;
        });
  }
  return pair;
}

std::vector<int64_t> Graph::savedValues() const {
  if (!impl_->func)
    return {};
  auto saved = impl_->func->getAttrOfType<DenseI64ArrayAttr>("uta.saved");
  if (!saved)
    return {};
  return std::vector<int64_t>(saved.asArrayRef().begin(),
                              saved.asArrayRef().end());
}

} // namespace uta
