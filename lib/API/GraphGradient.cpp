//===- GraphGradient.cpp - Graph::gradient --------------------------------===//
//
// The gradient graph of a uta::Graph: the graph's module is printed and
// parsed into the new graph's context, the gradient transformation of
// passes/Transforms (uta-differentiate) builds the gradient function there,
// and the new graph adopts it as its function, its arguments and results as
// its inputs and outputs.
//
//===----------------------------------------------------------------------===//

#include "lib/API/GraphImpl.h"

#include "passes/Transforms/Passes.h"

#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace uta {

Graph Graph::gradient(std::vector<unsigned> wrt, bool joint) const {
  Graph result(name() + (joint ? "_fwd_bwd" : "_vjp"));
  Impl &g = *result.impl_;
  if (!ok()) {
    g.fail("gradient", "the graph has an error: " + error());
    return result;
  }
  if (impl_->outputs.empty()) {
    g.fail("gradient", "the graph has no outputs to differentiate");
    return result;
  }
  std::string text = str();
  if (text.empty()) {
    g.fail("gradient", "the graph has an error: " + error());
    return result;
  }

  std::string message;
  ScopedDiagnosticHandler handler(&g.context, [&](Diagnostic &diag) {
    if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &g.context);
  if (!module) {
    g.fail("gradient", "cannot read the graph back: " + message);
    return result;
  }
  auto forward = module->lookupSymbol<func::FuncOp>(impl_->func.getName());
  mlir::uta::DifferentiateOptions options;
  options.wrt.assign(wrt.begin(), wrt.end());
  options.joint = joint;
  FailureOr<func::FuncOp> gradient =
      mlir::uta::buildGradientFunction(forward, options);
  if (failed(gradient)) {
    g.fail("gradient", message);
    return result;
  }
  forward.erase();

  // The new graph's function is the gradient function.
  g.module = std::move(module);
  g.func = *gradient;
  g.returnOp =
      llvm::cast<func::ReturnOp>(g.func.getBody().front().getTerminator());
  for (BlockArgument argument : g.func.getArguments())
    g.inputs.push_back(g.makeTensor(argument));
  for (Value value : g.returnOp.getOperands())
    g.outputs.push_back(g.makeTensor(value));
  return result;
}

} // namespace uta
