//===- GraphImpl.h - Graph::Impl, shared by the builder's files -*- C++ -*-===//
//
// Graph::Impl, the MLIRContext, module and function that a uta::Graph builds
// into, and Impl::create, the template that creates one op and runs its
// verifier. Shared by Graph.cpp (construction, inputs, constants, outputs,
// printing), GraphTensorOps.cpp (the uta ops) and GraphCliffordOps.cpp (the
// clifford ops). Internal to lib/API: the public header uta/Graph.h includes
// nothing of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_API_GRAPHIMPL_H
#define UTA_LIB_API_GRAPHIMPL_H

#include "uta/Graph.h"

#include "dialects/Clifford/IR/CliffordDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uta {

struct Graph::Impl {
  /// A builder operand as error messages name it.
  struct Operand {
    const char *name;
    const Tensor &tensor;
  };

  explicit Impl(std::string graphName);

  bool hasError() const { return !error.empty(); }
  /// Records `message` as "what: message" unless an error is already kept.
  void fail(mlir::StringRef what, const mlir::Twine &message);

  /// Whether the graph has no error and every operand is one of its valid
  /// tensors; records the first problem otherwise.
  bool checkOperands(mlir::StringRef what, mlir::ArrayRef<Operand> operands);
  /// Whether every size of `shape` is positive and the element count fits
  /// in 64 bits.
  bool checkShape(mlir::StringRef what, mlir::ArrayRef<int64_t> shape);
  /// The verified attribute of `algebra`, or null after recording why not.
  mlir::uta::clifford::AlgebraAttr algebraAttr(mlir::StringRef what,
                                               const Algebra &algebra);
  /// The MLIR element type of `dtype`.
  mlir::Type elementType(DType dtype);

  mlir::Value value(const Tensor &tensor) const { return values[tensor.id_]; }
  Tensor makeTensor(mlir::Value value);

  /// Creates an OpTy before the return, verifies it, and returns its result;
  /// on failure erases it and records the verifier's message.
  template <typename OpTy, typename... Args>
  Tensor create(mlir::ArrayRef<Operand> operands, Args &&...args);

  /// Makes the function type match the block arguments and the return.
  void updateFunctionType();

  // Builders shared by several ops of one family (see their definitions in
  // GraphTensorOps.cpp and GraphCliffordOps.cpp).
  template <typename OpTy>
  Tensor reduce(const Tensor &x, mlir::ArrayRef<int64_t> dims, bool keepDims);
  template <typename OpTy>
  Tensor reshapeLike(const Tensor &x, mlir::ArrayRef<int64_t> shape);
  /// Creates a clifford op from `operands` in order through the generic
  /// builder, its attributes given by the names the generic form documents,
  /// so that optional attributes the ODS may gain later change nothing here.
  template <typename OpTy>
  Tensor createClifford(
      const Algebra &algebra, mlir::ArrayRef<Operand> operands,
      mlir::function_ref<mlir::Type(mlir::ArrayRef<mlir::Value>)> resultType,
      mlir::ArrayRef<mlir::NamedAttribute> attributes);

  // The context outlives the module, which is destroyed first.
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  mlir::func::ReturnOp returnOp;
  std::string name;
  std::string error;
  uint64_t id;
  /// The value of each Tensor, by Tensor::id_.
  std::vector<mlir::Value> values;
  std::vector<Tensor> inputs, outputs;
};

template <typename OpTy, typename... Args>
Tensor Graph::Impl::create(mlir::ArrayRef<Operand> operands, Args &&...args) {
  mlir::StringRef fullName = OpTy::getOperationName();
  mlir::StringRef what = fullName.split('.').second;
  if (!checkOperands(what, operands))
    return {};

  std::string message;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (message.empty() &&
        diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      message = diag.str();
    return mlir::success();
  });
  mlir::OpBuilder builder(returnOp);
  auto op = OpTy::create(builder, mlir::UnknownLoc::get(&context),
                         std::forward<Args>(args)...);
  if (mlir::succeeded(mlir::verify(op)))
    return makeTensor(op->getResult(0));

  op->erase();
  // "'uta.matmul' op contraction ..." -> "matmul: contraction ... (operand
  // types ...)": the verifier names sizes, the types say where they are.
  std::string prefix = ("'" + fullName + "' op ").str();
  mlir::StringRef reason(message);
  reason.consume_front(prefix);
  std::string text = reason.empty() ? "the op does not verify" : reason.str();
  for (auto [i, operand] : llvm::enumerate(operands))
    text += (i == 0 ? " (operand types " : ", ") + operand.tensor.typeStr();
  fail(what, operands.empty() ? text : text + ")");
  return {};
}

} // namespace uta

/// A graph without its implementation (moved from) builds nothing.
#define UTA_GRAPH_REQUIRE_IMPL()                                               \
  if (!impl_)                                                                  \
    return {};

#endif // UTA_LIB_API_GRAPHIMPL_H
