//===- GraphTensorOps.cpp - Graph's builders of uta ops -------------------===//
//
// The Graph methods that add a uta dialect op: elementwise arithmetic and
// activations, matmul, reductions, softmax, layer_norm, transpose, reshape,
// broadcast_to and cast. Each checks its operands and leaves the shape and
// type rules to the op's verifier, through Graph::Impl::create
// (GraphImpl.h).
//
//===----------------------------------------------------------------------===//

#include "uta/Graph.h"

#include "lib/API/GraphImpl.h"

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
namespace ir = mlir::uta;

// Definitions sit inside namespace uta (as in Graph.cpp): with `using
// namespace mlir`, a qualified uta:: would be ambiguous with mlir::uta.
namespace uta {

#define UTA_GRAPH_BINARY(method, OpTy)                                         \
  Tensor Graph::method(const Tensor &lhs, const Tensor &rhs) {                 \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl &g = *impl_;                                                          \
    Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}};                   \
    if (!g.checkOperands(OpTy::getOperationName().split('.').second,           \
                         operands))                                            \
      return {};                                                               \
    return g.create<OpTy>(operands, g.value(lhs), g.value(rhs));               \
  }

UTA_GRAPH_BINARY(add, ir::AddOp)
UTA_GRAPH_BINARY(sub, ir::SubOp)
UTA_GRAPH_BINARY(mul, ir::MulOp)
UTA_GRAPH_BINARY(div, ir::DivOp)
UTA_GRAPH_BINARY(max, ir::MaxOp)
UTA_GRAPH_BINARY(min, ir::MinOp)
UTA_GRAPH_BINARY(pow, ir::PowOp)
#undef UTA_GRAPH_BINARY

#define UTA_GRAPH_UNARY(method, OpTy)                                          \
  Tensor Graph::method(const Tensor &x) {                                      \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl &g = *impl_;                                                          \
    Impl::Operand operands[] = {{"input", x}};                                 \
    if (!g.checkOperands(OpTy::getOperationName().split('.').second,           \
                         operands))                                            \
      return {};                                                               \
    Value input = g.value(x);                                                  \
    return g.create<OpTy>(operands, input.getType(), input);                   \
  }

UTA_GRAPH_UNARY(neg, ir::NegOp)
UTA_GRAPH_UNARY(abs, ir::AbsOp)
UTA_GRAPH_UNARY(sign, ir::SignOp)
UTA_GRAPH_UNARY(exp, ir::ExpOp)
UTA_GRAPH_UNARY(log, ir::LogOp)
UTA_GRAPH_UNARY(sqrt, ir::SqrtOp)
UTA_GRAPH_UNARY(rsqrt, ir::RsqrtOp)
UTA_GRAPH_UNARY(tanh, ir::TanhOp)
UTA_GRAPH_UNARY(erf, ir::ErfOp)
UTA_GRAPH_UNARY(sigmoid, ir::SigmoidOp)
UTA_GRAPH_UNARY(relu, ir::ReluOp)
UTA_GRAPH_UNARY(silu, ir::SiluOp)
#undef UTA_GRAPH_UNARY

Tensor Graph::gelu(const Tensor &x, bool tanhApproximation) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("gelu", operands))
    return {};
  Value input = g.value(x);
  OpBuilder b(&g.context);
  return g.create<ir::GeluOp>(operands, input.getType(), input,
                              b.getBoolAttr(tanhApproximation));
}

Tensor Graph::matmul(const Tensor &lhs, const Tensor &rhs, bool transposeB) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}};
  if (!g.checkOperands("matmul", operands))
    return {};
  return g.create<ir::MatmulOp>(operands, g.value(lhs), g.value(rhs),
                                transposeB);
}

template <typename OpTy>
Tensor Graph::Impl::reduce(const Tensor &x, ArrayRef<int64_t> dims,
                           bool keepDims) {
  Impl::Operand operands[] = {{"input", x}};
  if (!checkOperands(OpTy::getOperationName().split('.').second, operands))
    return {};
  return create<OpTy>(operands, value(x), dims, keepDims);
}

Tensor Graph::reduceSum(const Tensor &x, std::vector<int64_t> dims,
                        bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceSumOp>(x, dims, keepDims);
}

Tensor Graph::reduceMax(const Tensor &x, std::vector<int64_t> dims,
                        bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceMaxOp>(x, dims, keepDims);
}

Tensor Graph::reduceMean(const Tensor &x, std::vector<int64_t> dims,
                         bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceMeanOp>(x, dims, keepDims);
}

Tensor Graph::softmax(const Tensor &x, int64_t dim) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("softmax", operands))
    return {};
  Value input = g.value(x);
  OpBuilder b(&g.context);
  return g.create<ir::SoftmaxOp>(operands, input.getType(), input,
                                 b.getI64IntegerAttr(dim));
}

Tensor Graph::layerNorm(const Tensor &x, const Tensor &weight,
                        const Tensor &bias, int64_t axis, float epsilon) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}, {"weight", weight}, {"bias", bias}};
  if (!g.checkOperands("layer_norm", operands))
    return {};
  return g.create<ir::LayerNormOp>(operands, g.value(x), g.value(weight),
                                   g.value(bias), axis, epsilon);
}

Tensor Graph::transpose(const Tensor &x, std::vector<int64_t> permutation) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("transpose", operands))
    return {};
  return g.create<ir::TransposeOp>(operands, g.value(x),
                                   ArrayRef<int64_t>(permutation));
}

/// reshape and broadcast_to: the result type is x's element type at
/// `shape`, which is checked before any op exists.
template <typename OpTy>
Tensor Graph::Impl::reshapeLike(const Tensor &x, ArrayRef<int64_t> shape) {
  StringRef what = OpTy::getOperationName().split('.').second;
  Impl::Operand operands[] = {{"input", x}};
  if (!checkOperands(what, operands) || !checkShape(what, shape))
    return {};
  Value input = value(x);
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(input));
  return create<OpTy>(operands, type, input);
}

Tensor Graph::reshape(const Tensor &x, std::vector<int64_t> shape) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reshapeLike<ir::ReshapeOp>(x, shape);
}

Tensor Graph::broadcastTo(const Tensor &x, std::vector<int64_t> shape) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reshapeLike<ir::BroadcastToOp>(x, shape);
}

Tensor Graph::cast(const Tensor &x, DType dtype) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("cast", operands))
    return {};
  Value input = g.value(x);
  auto type =
      llvm::cast<RankedTensorType>(input.getType()).clone(g.elementType(dtype));
  return g.create<ir::CastOp>(operands, type, input);
}

} // namespace uta
