//===- UTAFolds.cpp - Folds and canonicalizations of the uta ops ----------===//
//
// Local simplifications that need no analysis: arithmetic identities (x + 0,
// x * 1), involutions and idempotent ops (neg(neg x), relu(relu x)), and
// chains of data-movement ops (transpose, reshape, broadcast_to, cast). Every
// rewrite here is exact in IEEE arithmetic except where a comment says
// otherwise. Folded constants become arith.constant through the dialect's
// constant materializer.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/UTAShapes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::uta;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The splat value of a constant floating-point tensor operand, if it is one.
static std::optional<APFloat> getSplatFloat(Attribute attr) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat || !isa<FloatType>(splat.getElementType()))
    return std::nullopt;
  return splat.getSplatValue<APFloat>();
}

static bool isSplatZero(Attribute attr) {
  std::optional<APFloat> value = getSplatFloat(attr);
  return value && value->isZero();
}

static bool isSplatValue(Attribute attr, double x) {
  std::optional<APFloat> value = getSplatFloat(attr);
  return value && value->isExactlyValue(x);
}

/// Whether replacing `op`'s result by `value` keeps the type, i.e. the other
/// operand did not broadcast `value` to a larger shape.
static bool hasResultType(Operation *op, Value value) {
  return value.getType() == op->getResult(0).getType();
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

// x + 0 -> x and 0 + x -> x for either zero. Sign-of-zero caveat: for
// x = -0.0, IEEE gives -0.0 + (+0.0) = +0.0, but the fold returns x and so
// keeps -0.0. Only the sign of a zero can differ (x + (-0.0) is exact for
// every x), which no comparison in this project distinguishes; the fold is
// the one every tensor compiler makes. This is the phase's one decision
// about zeros (docs/phases.md): the sign of a zero result is not kept, here
// and in the zeros of clifford-simplify-grades, although a later 1 / x would
// turn it into the sign of an infinity.
OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getLhs()) && isSplatZero(adaptor.getRhs()))
    return getLhs();
  if (hasResultType(*this, getRhs()) && isSplatZero(adaptor.getLhs()))
    return getRhs();
  return {};
}

// x - 0 -> x for either zero; the same sign-of-zero caveat as x + 0 applies
// to x - (-0.0) with x = -0.0 (IEEE gives +0.0), while x - (+0.0) is exact.
OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getLhs()) && isSplatZero(adaptor.getRhs()))
    return getLhs();
  return {};
}

// x * 1 -> x and 1 * x -> x: exact.
OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getLhs()) && isSplatValue(adaptor.getRhs(), 1.0))
    return getLhs();
  if (hasResultType(*this, getRhs()) && isSplatValue(adaptor.getLhs(), 1.0))
    return getRhs();
  return {};
}

// x / 1 -> x: exact.
OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getLhs()) && isSplatValue(adaptor.getRhs(), 1.0))
    return getLhs();
  return {};
}

// max(x, x) -> x and min(x, x) -> x: exact, NaN included.
// pow(x, 1) -> x: exact for every x, NaN included.
OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getLhs()) && isSplatValue(adaptor.getRhs(), 1.0))
    return getLhs();
  return {};
}

OpFoldResult MaxOp::fold(FoldAdaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return {};
}

OpFoldResult MinOp::fold(FoldAdaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return {};
}

namespace {
/// x + neg(y) -> x - y, and neg(x) + y -> y - x. Exact: IEEE defines x - y
/// as x + (-y). Broadcasting is unaffected because neg keeps its type.
struct AddOfNegToSub final : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    if (auto neg = op.getRhs().getDefiningOp<NegOp>()) {
      rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getLhs(),
                                         neg.getInput());
      return success();
    }
    if (auto neg = op.getLhs().getDefiningOp<NegOp>()) {
      rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getRhs(),
                                         neg.getInput());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no operand is a neg");
  }
};

/// x - neg(y) -> x + y. Exact, as above.
struct SubOfNegToAdd final : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    auto neg = op.getRhs().getDefiningOp<NegOp>();
    if (!neg)
      return rewriter.notifyMatchFailure(op, "rhs is not a neg");
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getType(), op.getLhs(),
                                       neg.getInput());
    return success();
  }
};

/// x * -1 -> neg(x) when x is not broadcast. Exact: multiplying by -1 only
/// flips the sign, zeros and infinities included. (Constants of the
/// commutative mul are already moved to the rhs by the Commutative trait.)
struct MulByMinusOneToNeg final : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    Attribute rhs;
    if (!matchPattern(op.getRhs(), m_Constant(&rhs)) ||
        !isSplatValue(rhs, -1.0))
      return rewriter.notifyMatchFailure(op, "rhs is not a splat -1");
    if (!hasResultType(op, op.getLhs()))
      return rewriter.notifyMatchFailure(op, "lhs is broadcast");
    rewriter.replaceOpWithNewOp<NegOp>(op, op.getLhs());
    return success();
  }
};
} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<AddOfNegToSub>(context);
}

void SubOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<SubOfNegToAdd>(context);
}

void MulOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<MulByMinusOneToNeg>(context);
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

// neg(neg x) -> x: exact (two sign flips).
OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

// abs(abs x) -> abs x, and abs(neg x) -> abs x (in place): exact, abs clears
// the sign that neg flips.
// erf(±0) -> ±0: a splat zero input is its own result.
OpFoldResult ErfOp::fold(FoldAdaptor adaptor) {
  if (isSplatZero(adaptor.getInput()))
    return getInput();
  return {};
}

OpFoldResult AbsOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<AbsOp>())
    return inner.getResult();
  if (auto inner = getInput().getDefiningOp<NegOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

// sign(sign x) -> sign x (sign is idempotent: ±1, ±0 and NaN are fixed
// points); sign of a splat zero -> that zero.
OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<SignOp>())
    return inner.getResult();
  if (isSplatZero(adaptor.getInput()))
    return getInput();
  return {};
}

// relu(relu x) -> relu x: relu is idempotent (NaN stays NaN, -0.0 became
// +0.0 in the first one).
OpFoldResult ReluOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<ReluOp>())
    return inner.getResult();
  return {};
}

//===----------------------------------------------------------------------===//
// Data movement and conversion
//===----------------------------------------------------------------------===//

// Identity permutation -> input; a splat constant -> a splat of the result
// type; transpose(transpose(x, p), q) -> transpose(x, p∘q) in place, or x
// itself when the composition is the identity. A rounding transpose changes
// values, and stays.
OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (getRoundToTf32())
    return {};
  if (isIdentityPermutation(getPermutation()))
    return getInput();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (!inner || inner.getRoundToTf32())
    return {};
  SmallVector<int64_t> composed =
      composePermutations(inner.getPermutation(), getPermutation());
  if (isIdentityPermutation(composed))
    return inner.getInput();
  getInputMutable().assign(inner.getInput());
  setPermutation(composed);
  return getResult();
}

/// The input of `value`'s producer where it is a transpose of the last two
/// axes that keeps the values (not one that rounds to TF32).
static Value getSwappedInput(Value value) {
  auto transpose = value.getDefiningOp<TransposeOp>();
  if (!transpose || transpose.getRoundToTf32() ||
      transpose.getPermutation() !=
          ArrayRef(getMatrixTranspose(transpose.getType().getRank())))
    return {};
  return transpose.getInput();
}

// matmul(transpose(a), b) -> matmul(a, b) with transpose_a flipped, and the
// same for b (in place): the engine reads either layout of either operand,
// so the transpose's copy is saved. Exact: the same products in the same
// order. Where a layout suits a target's tensor cores better,
// uta-tensor-core-layouts makes the copy again.
OpFoldResult MatmulOp::fold(FoldAdaptor) {
  bool changed = false;
  if (Value input = getSwappedInput(getLhs())) {
    getLhsMutable().assign(input);
    setTransposeA(!getTransposeA());
    changed = true;
  }
  if (Value input = getSwappedInput(getRhs())) {
    getRhsMutable().assign(input);
    setTransposeB(!getTransposeB());
    changed = true;
  }
  return changed ? getResult() : OpFoldResult();
}

// Same type -> input; a constant -> the same data with the result shape;
// reshape(reshape x) -> reshape x (in place), or x when the types match.
OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getInput()))
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  auto inner = getInput().getDefiningOp<ReshapeOp>();
  if (!inner)
    return {};
  if (hasResultType(*this, inner.getInput()))
    return inner.getInput();
  getInputMutable().assign(inner.getInput());
  return getResult();
}

// Same type -> input; a splat constant -> a splat of the result type;
// broadcast_to(broadcast_to x) -> broadcast_to x (in place): broadcasting is
// transitive, each size of x being 1 or the final size.
OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (hasResultType(*this, getInput()))
    return getInput();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  auto inner = getInput().getDefiningOp<BroadcastToOp>();
  if (!inner)
    return {};
  getInputMutable().assign(inner.getInput());
  return getResult();
}

/// Whether every value of `from` is exactly representable in `to`: the
/// widening conversions f16 -> f32 and bf16 -> f32, and no-op conversions.
/// f16 <-> bf16 is exact in neither direction (f16 has more fraction bits,
/// bf16 a wider exponent range), and any narrowing conversion rounds.
static bool isExactConversion(Type from, Type to) {
  return from == to || (to.isF32() && (from.isF16() || from.isBF16()));
}

// Same type -> input. cast(cast(x, A -> B), B -> C) -> cast(x, A -> C) only
// when A -> B is exact: then the second cast rounds the very value x, as the
// direct cast does, and with C = A the pair is the identity (f16 -> f32 ->
// f16). A narrowing first cast loses bits (f32 -> f16 -> f32 is not x), and
// rounding twice (f32 -> bf16 -> f16) can differ from rounding once.
OpFoldResult CastOp::fold(FoldAdaptor) {
  if (hasResultType(*this, getInput()))
    return getInput();
  auto inner = getInput().getDefiningOp<CastOp>();
  if (!inner || !isExactConversion(inner.getInput().getType().getElementType(),
                                   inner.getType().getElementType()))
    return {};
  if (hasResultType(*this, inner.getInput()))
    return inner.getInput();
  getInputMutable().assign(inner.getInput());
  return getResult();
}
