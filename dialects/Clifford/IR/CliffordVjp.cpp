//===- CliffordVjp.cpp - The vector-Jacobian product of every clifford op -===//
//
// Each op's VjpOpInterface::buildVjp, in clifford and uta ops. The products
// are bilinear, so each operand's cotangent is the product's adjoint with
// respect to it (clifford.product_adjoint), which holds in degenerate
// algebras too, summed back over the axes that broadcasting stretched. The
// sign flips (reverse, involutions, projection) are their own adjoints, the
// dual's is the dual times I^2, the gate and the norm have adjoint ops of
// their own (one kernel each), and the layers are spelled out below.
// fc_product's cotangents are ops of their own, fc_product_adjoint for x
// and y and fc_product_weight_gradient for the weights, each a GEMM on the
// engine, and so are theirs.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/VjpBuilders.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::vjp;

namespace {

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// The broadcast shape of `a` and `b`, with `blades` entries on the blade
/// axis.
RankedTensorType broadcastType(Value a, Value c, int64_t bladeAxis,
                               int64_t blades) {
  SmallVector<int64_t> shape;
  for (auto [x, y] :
       llvm::zip_equal(typeOf(a).getShape(), typeOf(c).getShape()))
    shape.push_back(std::max(x, y));
  shape[bladeAxis] = blades;
  return typeOf(a).clone(shape);
}

/// The adjoint of the product `kind` with respect to `operand`, at the
/// broadcast shape of `cotangent` and `other`.
Value productAdjoint(OpBuilder &b, Location loc, AlgebraAttr algebra,
                     ProductKind kind, ProductOperand operand, Value cotangent,
                     Value other, int64_t bladeAxis) {
  RankedTensorType type =
      broadcastType(cotangent, other, bladeAxis, algebra.getNumBlades());
  return ProductAdjointOp::create(
      b, loc, type, algebra, ProductKindAttr::get(b.getContext(), kind),
      ProductOperandAttr::get(b.getContext(), operand), cotangent, other,
      b.getI64IntegerAttr(bladeAxis));
}

/// The product `kind` of `lhs` and `rhs` at their broadcast shape.
Value product(OpBuilder &b, Location loc, AlgebraAttr algebra, ProductKind kind,
              Value lhs, Value rhs, int64_t bladeAxis) {
  int64_t blades = kind == ProductKind::scalar ? 1 : algebra.getNumBlades();
  RankedTensorType type = broadcastType(lhs, rhs, bladeAxis, blades);
  IntegerAttr axis = b.getI64IntegerAttr(bladeAxis);
  switch (kind) {
  case ProductKind::geometric:
    return GeometricProductOp::create(b, loc, type, algebra, lhs, rhs, axis,
                                      nullptr, nullptr);
  case ProductKind::outer:
    return OuterProductOp::create(b, loc, type, algebra, lhs, rhs, axis,
                                  nullptr, nullptr);
  case ProductKind::left_contraction:
    return LeftContractionOp::create(b, loc, type, algebra, lhs, rhs, axis,
                                     nullptr, nullptr);
  case ProductKind::scalar:
    return ScalarProductOp::create(b, loc, type, algebra, lhs, rhs, axis,
                                   nullptr, nullptr);
  }
  llvm_unreachable("unknown product kind");
}

/// The cotangents of a product's two operands (or of one, as asked).
LogicalResult productVjp(Operation *op, OpBuilder &b, AlgebraAttr algebra,
                         ProductKind kind, Value lhs, Value rhs,
                         int64_t bladeAxis, Value g, ArrayRef<bool> wanted,
                         SmallVectorImpl<Value> &out) {
  Location loc = op->getLoc();
  out.push_back(wanted[0] ? sumToShape(b, loc,
                                       productAdjoint(b, loc, algebra, kind,
                                                      ProductOperand::lhs, g,
                                                      rhs, bladeAxis),
                                       typeOf(lhs))
                          : Value());
  out.push_back(wanted[1] ? sumToShape(b, loc,
                                       productAdjoint(b, loc, algebra, kind,
                                                      ProductOperand::rhs, g,
                                                      lhs, bladeAxis),
                                       typeOf(rhs))
                          : Value());
  return success();
}

/// The weight gradient of weighted_product [F, P] from the per-position path
/// sums [P, B, F]: summed over the batch in a fixed order, then transposed.
Value pathWeightGradient(OpBuilder &b, Location loc, AlgebraAttr algebra,
                         Value cotangent, Value lhs, Value rhs) {
  RankedTensorType type = typeOf(lhs);
  int64_t paths = algebra.getAlgebra().numPaths();
  int64_t blades = type.getDimSize(0);
  int64_t batch = type.getDimSize(1), features = type.getDimSize(2);
  // Runs of `chunk` batch elements are summed inside path_adjoint's kernel,
  // P sums per thread, so that it writes a small [P, B / chunk, F] tensor
  // rather than [P, B, F]. The chunk leaves about 2^17 threads, enough to
  // keep a GPU's memory busy, but is at least 4 P / 2^n, so that the tensor
  // takes at most a quarter of an activation's memory (a training step's
  // peak holds it beside several activations); it runs at most 64 long,
  // and never past the batch.
  int64_t forThreads = batch * features / (int64_t(1) << 17);
  int64_t forMemory = llvm::divideCeil(4 * paths, blades);
  int64_t chunk = std::clamp<int64_t>(std::max(forThreads, forMemory), 1,
                                      std::min<int64_t>(64, batch));
  auto pathType = type.clone({paths, (batch + chunk - 1) / chunk, features});
  Value perPosition =
      PathAdjointOp::create(b, loc, pathType, algebra, cotangent, lhs, rhs,
                            b.getI64IntegerAttr(0), b.getI64IntegerAttr(chunk));
  Value summed = ReduceSumOp::create(b, loc, perPosition, ArrayRef<int64_t>{1},
                                     /*keepDims=*/false);
  return TransposeOp::create(b, loc, summed, ArrayRef<int64_t>{1, 0});
}

Value weightedAdjoint(OpBuilder &b, Location loc, AlgebraAttr algebra,
                      ProductOperand operand, Value cotangent, Value other,
                      Value weights) {
  return WeightedProductAdjointOp::create(
      b, loc, cotangent.getType(), algebra,
      ProductOperandAttr::get(b.getContext(), operand), cotangent, other,
      weights, b.getI64IntegerAttr(0));
}

} // namespace

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

LogicalResult GeometricProductOp::buildVjp(OpBuilder &b, Value g,
                                           ArrayRef<bool> wanted,
                                           SmallVectorImpl<Value> &out) {
  return productVjp(*this, b, getAlgebra(), ProductKind::geometric, getLhs(),
                    getRhs(), getBladeAxis(), g, wanted, out);
}

LogicalResult OuterProductOp::buildVjp(OpBuilder &b, Value g,
                                       ArrayRef<bool> wanted,
                                       SmallVectorImpl<Value> &out) {
  return productVjp(*this, b, getAlgebra(), ProductKind::outer, getLhs(),
                    getRhs(), getBladeAxis(), g, wanted, out);
}

LogicalResult LeftContractionOp::buildVjp(OpBuilder &b, Value g,
                                          ArrayRef<bool> wanted,
                                          SmallVectorImpl<Value> &out) {
  return productVjp(*this, b, getAlgebra(), ProductKind::left_contraction,
                    getLhs(), getRhs(), getBladeAxis(), g, wanted, out);
}

LogicalResult ScalarProductOp::buildVjp(OpBuilder &b, Value g,
                                        ArrayRef<bool> wanted,
                                        SmallVectorImpl<Value> &out) {
  return productVjp(*this, b, getAlgebra(), ProductKind::scalar, getLhs(),
                    getRhs(), getBladeAxis(), g, wanted, out);
}

LogicalResult SandwichOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                   SmallVectorImpl<Value> &out) {
  // y = (r x) reverse(r): t = r x is recomputed, and r gets the cotangents
  // of both of its uses.
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  int64_t axis = getBladeAxis();
  Value r = getRotor(), x = getInput();
  Value reversed = ReverseOp::create(b, loc, r.getType(), algebra, r,
                                     b.getI64IntegerAttr(axis));
  Value dt = productAdjoint(b, loc, algebra, ProductKind::geometric,
                            ProductOperand::lhs, g, reversed, axis);
  Value rotorCotangent;
  if (wanted[0]) {
    Value t = product(b, loc, algebra, ProductKind::geometric, r, x, axis);
    Value dReversed = productAdjoint(b, loc, algebra, ProductKind::geometric,
                                     ProductOperand::rhs, g, t, axis);
    Value viaReverse = ReverseOp::create(b, loc, dReversed.getType(), algebra,
                                         dReversed, b.getI64IntegerAttr(axis));
    Value viaProduct = productAdjoint(b, loc, algebra, ProductKind::geometric,
                                      ProductOperand::lhs, dt, x, axis);
    rotorCotangent =
        sumToShape(b, loc, add(b, loc, viaProduct, viaReverse), typeOf(r));
  }
  Value inputCotangent;
  if (wanted[1])
    inputCotangent =
        sumToShape(b, loc,
                   productAdjoint(b, loc, algebra, ProductKind::geometric,
                                  ProductOperand::rhs, dt, r, axis),
                   typeOf(x));
  out.push_back(rotorCotangent);
  out.push_back(inputCotangent);
  return success();
}

//===----------------------------------------------------------------------===//
// Involutions, projection, dual and gate
//===----------------------------------------------------------------------===//

/// The sign flips are diagonal with entries ±1 (or 0 and 1): self-adjoint.
#define UTA_SELF_ADJOINT_VJP(Op)                                               \
  LogicalResult Op::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,     \
                             SmallVectorImpl<Value> &out) {                    \
    if (!wanted[0]) {                                                          \
      out.push_back(Value());                                                  \
      return success();                                                        \
    }                                                                          \
    Operation *adjoint = b.clone(*getOperation());                             \
    adjoint->setOperand(0, g);                                                 \
    out.push_back(adjoint->getResult(0));                                      \
    return success();                                                          \
  }
UTA_SELF_ADJOINT_VJP(ReverseOp)
UTA_SELF_ADJOINT_VJP(GradeInvolutionOp)
UTA_SELF_ADJOINT_VJP(ConjugateOp)
UTA_SELF_ADJOINT_VJP(GradeProjectOp)
#undef UTA_SELF_ADJOINT_VJP

LogicalResult DualOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  if (!wanted[0]) {
    out.push_back(Value());
    return success();
  }
  // The dual is a signed permutation D of the blades, so its adjoint is
  // D^-1 = D I^2 (D^2 multiplies by I^-2 = I^2, a sign).
  Location loc = getLoc();
  const ::uta::ga::Algebra &algebra = getAlgebra().getAlgebra();
  unsigned pseudoscalar = algebra.numBlades() - 1;
  Value dual = DualOp::create(b, loc, g.getType(), getAlgebraAttr(), g,
                              getBladeAxisAttr());
  if (algebra.product(pseudoscalar, pseudoscalar).sign < 0)
    dual = NegOp::create(b, loc, dual.getType(), dual);
  out.push_back(dual);
  return success();
}

LogicalResult ScalarGateOp::buildVjp(OpBuilder &b, Value g,
                                     ArrayRef<bool> wanted,
                                     SmallVectorImpl<Value> &out) {
  // y = x Phi(s), s = x_0: dx = g Phi(s) + e_0 (sum over blades of g x)
  // phi(s), one bladewise op (its definition spells the formula out).
  out.push_back(
      wanted[0] ? ScalarGateAdjointOp::create(b, getLoc(), getInput().getType(),
                                              getAlgebraAttr(), g, getInput(),
                                              getBladeAxisAttr())
                      .getResult()
                : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

LogicalResult WeightedProductOp::buildVjp(OpBuilder &b, Value g,
                                          ArrayRef<bool> wanted,
                                          SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  Value x = getLhs(), y = getRhs(), w = getWeights();
  out.push_back(
      wanted[0] ? weightedAdjoint(b, loc, algebra, ProductOperand::lhs, g, y, w)
                : Value());
  out.push_back(
      wanted[1] ? weightedAdjoint(b, loc, algebra, ProductOperand::rhs, g, x, w)
                : Value());
  out.push_back(wanted[2] ? pathWeightGradient(b, loc, algebra, g, x, y)
                          : Value());
  return success();
}

namespace {

/// The gradient of sum(g * fc_product(x, y, w)) with respect to w, in w's
/// layout ([P, Fout, Fin] where `transposed`).
Value fcProductWeightGradient(OpBuilder &b, Location loc, AlgebraAttr algebra,
                              Value g, Value x, Value y, bool transposed) {
  RankedTensorType xType = typeOf(x);
  int64_t paths = algebra.getAlgebra().numPaths(),
          inFeatures = xType.getDimSize(2),
          outFeatures = typeOf(g).getDimSize(2);
  auto type = xType.clone(
      transposed ? ArrayRef<int64_t>{paths, outFeatures, inFeatures}
                 : ArrayRef<int64_t>{paths, inFeatures, outFeatures});
  return FcProductWeightGradientOp::create(
      b, loc, type, algebra, g, x, y, b.getI64IntegerAttr(0),
      b.getBoolAttr(transposed), /*transpose_pairs=*/b.getBoolAttr(false),
      /*transpose_cotangent=*/b.getBoolAttr(false),
      /*batch_runs=*/b.getI64IntegerAttr(1));
}

/// fc_product's adjoint with respect to `operand`, at `other`'s shape.
Value fcProductAdjoint(OpBuilder &b, Location loc, AlgebraAttr algebra,
                       ProductOperand operand, Value cotangent, Value other,
                       Value weights, bool transposed) {
  return FcProductAdjointOp::create(
      b, loc, other.getType(), algebra,
      ProductOperandAttr::get(b.getContext(), operand), cotangent, other,
      weights, b.getI64IntegerAttr(0), b.getBoolAttr(transposed));
}

} // namespace

LogicalResult FcProductOp::buildVjp(OpBuilder &b, Value g,
                                    ArrayRef<bool> wanted,
                                    SmallVectorImpl<Value> &out) {
  // dx and dy are fc_product_adjoint (one GEMM per result blade), dW
  // fc_product_weight_gradient (one GEMM per path): no pair products are
  // stored.
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  Value x = getLhs(), y = getRhs(), w = getWeights();
  bool transposed = getTransposeWeights();
  // With a gate, the product is the ungated one of x scaled by the gate
  // (uta.mul broadcasts it over the blades): its rule on that x, then the
  // chain rule through the scale.
  Value gate = getGate(), ungatedX = x;
  if (gate)
    x = MulOp::create(b, loc, x, gate);
  bool wantsX = wanted[0] || (gate && wanted[3]);
  Value xCotangent =
      wantsX ? fcProductAdjoint(b, loc, algebra, ProductOperand::lhs, g, y, w,
                                transposed)
             : Value();
  out.push_back(!wanted[0] ? Value()
                : gate     ? MulOp::create(b, loc, xCotangent, gate)
                           : xCotangent);
  out.push_back(wanted[1]
                    ? fcProductAdjoint(b, loc, algebra, ProductOperand::rhs, g,
                                       x, w, transposed)
                    : Value());
  out.push_back(
      wanted[2] ? fcProductWeightGradient(b, loc, algebra, g, x, y, transposed)
                : Value());
  if (gate)
    out.push_back(wanted[3]
                      ? ReduceSumOp::create(
                            b, loc, MulOp::create(b, loc, xCotangent, ungatedX),
                            ArrayRef<int64_t>{0}, /*keepDims=*/false)
                            .getResult()
                      : Value());
  return success();
}

LogicalResult GradeRmsNormOp::buildVjp(OpBuilder &b, Value g,
                                       ArrayRef<bool> wanted,
                                       SmallVectorImpl<Value> &out) {
  // dx = r (g - x r^2 c) per grade and batch element: one kernel with the
  // forward op's two fixed-order reductions.
  out.push_back(wanted[0]
                    ? GradeRmsNormAdjointOp::create(
                          b, getLoc(), getInput().getType(), getAlgebraAttr(),
                          g, getInput(), getEpsilonAttr(), getBladeAxisAttr())
                          .getResult()
                    : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Adjoints (second derivatives of the products)
//===----------------------------------------------------------------------===//

LogicalResult ProductAdjointOp::buildVjp(OpBuilder &b, Value c,
                                         ArrayRef<bool> wanted,
                                         SmallVectorImpl<Value> &out) {
  // With operand = lhs the op is R_i = sum s g_k y_j: bilinear in (g, y),
  // dg = product(c, y), dy = adjoint_rhs(g, c). With operand = rhs,
  // R_j = sum s x_i g_k: dg = product(x, c), dx = adjoint_lhs(g, c).
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  int64_t axis = getBladeAxis();
  Value g = getCotangent(), other = getOther();
  bool ofLhs = getOperand() == ProductOperand::lhs;
  Value dg, dOther;
  if (wanted[0])
    dg = sumToShape(
        b, loc,
        ofLhs ? product(b, loc, algebra, getProduct(), c, other, axis)
              : product(b, loc, algebra, getProduct(), other, c, axis),
        typeOf(g));
  if (wanted[1])
    dOther = sumToShape(
        b, loc,
        productAdjoint(b, loc, algebra, getProduct(),
                       ofLhs ? ProductOperand::rhs : ProductOperand::lhs, g, c,
                       axis),
        typeOf(other));
  out.push_back(dg);
  out.push_back(dOther);
  return success();
}

LogicalResult WeightedProductAdjointOp::buildVjp(OpBuilder &b, Value c,
                                                 ArrayRef<bool> wanted,
                                                 SmallVectorImpl<Value> &out) {
  // As for product_adjoint, with the path weights: trilinear in (g, other,
  // w).
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  Value g = getCotangent(), other = getOther(), w = getWeights();
  bool ofLhs = getOperand() == ProductOperand::lhs;
  Value x = ofLhs ? c : other, y = ofLhs ? other : c;
  Value dg, dOther, dw;
  if (wanted[0])
    dg = WeightedProductOp::create(b, loc, g.getType(), algebra, x, y, w,
                                   b.getI64IntegerAttr(0), nullptr, nullptr);
  if (wanted[1])
    dOther = weightedAdjoint(b, loc, algebra,
                             ofLhs ? ProductOperand::rhs : ProductOperand::lhs,
                             g, c, w);
  if (wanted[2])
    dw = pathWeightGradient(b, loc, algebra, g, x, y);
  out.push_back(dg);
  out.push_back(dOther);
  out.push_back(dw);
  return success();
}

LogicalResult FcProductAdjointOp::buildVjp(OpBuilder &b, Value c,
                                           ArrayRef<bool> wanted,
                                           SmallVectorImpl<Value> &out) {
  // Trilinear in (g, other, w): with c in the differentiated operand's
  // place, z = fc_product(x, y, w) gives dg, the other adjoint gives
  // d other, and fc_product's weight gradient dw.
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  Value g = getCotangent(), other = getOther(), w = getWeights();
  bool ofLhs = getOperand() == ProductOperand::lhs;
  bool transposed = getTransposeWeights();
  Value x = ofLhs ? c : other, y = ofLhs ? other : c;
  out.push_back(wanted[0] ? FcProductOp::create(
                                b, loc, g.getType(), algebra, x, y, w,
                                /*gate=*/Value(), b.getI64IntegerAttr(0),
                                nullptr, nullptr, b.getBoolAttr(transposed))
                                .getResult()
                          : Value());
  out.push_back(wanted[1] ? fcProductAdjoint(b, loc, algebra,
                                             ofLhs ? ProductOperand::rhs
                                                   : ProductOperand::lhs,
                                             g, c, w, transposed)
                          : Value());
  out.push_back(
      wanted[2] ? fcProductWeightGradient(b, loc, algebra, g, x, y, transposed)
                : Value());
  return success();
}

LogicalResult FcProductWeightGradientOp::buildVjp(OpBuilder &b, Value c,
                                                  ArrayRef<bool> wanted,
                                                  SmallVectorImpl<Value> &out) {
  // <c, dW(g, x, y)> = <g, fc_product(x, y, c)>: trilinear in (g, x, y),
  // with c in the weights' place. Operands given batch-contiguous
  // ([2^n, F, B]: the pairs with transpose_pairs, the cotangent with
  // transpose_cotangent) are differentiated in the [2^n, B, F] layout,
  // their cotangents transposed back (the swap is its own inverse).
  if (getBatchRuns() > 1)
    return emitOpError() << "with batch_runs " << getBatchRuns()
                         << " (partial gradients, made after "
                            "differentiation) has no VJP";
  Location loc = getLoc();
  AlgebraAttr algebra = getAlgebra();
  bool transposed = getTransposeWeights(),
       pairsTransposed = getTransposePairs(),
       cotangentTransposed = getTransposeCotangent();
  const int64_t swapLast[] = {0, 2, 1};
  auto toRows = [&](Value v, bool batchContiguous) -> Value {
    return batchContiguous ? TransposeOp::create(b, loc, v, swapLast) : v;
  };
  Value g = toRows(getCotangent(), cotangentTransposed),
        x = toRows(getLhs(), pairsTransposed),
        y = toRows(getRhs(), pairsTransposed);
  out.push_back(wanted[0]
                    ? toRows(FcProductOp::create(
                                 b, loc, g.getType(), algebra, x, y, c,
                                 /*gate=*/Value(), b.getI64IntegerAttr(0),
                                 nullptr, nullptr, b.getBoolAttr(transposed))
                                 .getResult(),
                             cotangentTransposed)
                    : Value());
  out.push_back(
      wanted[1] ? toRows(fcProductAdjoint(b, loc, algebra, ProductOperand::lhs,
                                          g, y, c, transposed),
                         pairsTransposed)
                : Value());
  out.push_back(
      wanted[2] ? toRows(fcProductAdjoint(b, loc, algebra, ProductOperand::rhs,
                                          g, x, c, transposed),
                         pairsTransposed)
                : Value());
  return success();
}
