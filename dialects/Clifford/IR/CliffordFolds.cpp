//===- CliffordFolds.cpp - Folds of the clifford ops ----------------------===//
//
// Algebraic identities that need no analysis: the three involutions are
// their own inverses, projecting onto every grade is the identity, and two
// projections make one. Every rewrite requires the same algebra and
// blade_axis on both ops, since the identities only hold per algebra and
// blade layout. fc_product_pair_adjoints with one result unread becomes the
// single adjoint.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <iterator>

using namespace mlir;
using namespace mlir::uta::clifford;

/// f(f(x)) = x for an involution f: returns x when `op`'s input is the same
/// involution in the same algebra and layout.
template <typename OpTy> static OpFoldResult foldInvolution(OpTy op) {
  auto inner = op.getInput().template getDefiningOp<OpTy>();
  if (!inner || inner.getAlgebra() != op.getAlgebra() ||
      inner.getBladeAxis() != op.getBladeAxis())
    return {};
  return inner.getInput();
}

OpFoldResult ReverseOp::fold(FoldAdaptor) { return foldInvolution(*this); }

OpFoldResult GradeInvolutionOp::fold(FoldAdaptor) {
  return foldInvolution(*this);
}

OpFoldResult ConjugateOp::fold(FoldAdaptor) { return foldInvolution(*this); }

OpFoldResult GradeProjectOp::fold(FoldAdaptor) {
  // The verifier guarantees unique grades in 0..n, so n + 1 of them are all.
  if (getGrades().size() == getAlgebra().getDimension() + 1)
    return getInput();
  return {};
}

namespace {
/// grade_project(grade_project(x, A), B) -> grade_project(x, A ∩ B), or a
/// zero constant when A ∩ B is empty.
struct MergeGradeProjections final : OpRewritePattern<GradeProjectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GradeProjectOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<GradeProjectOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a grade_project");
    if (inner.getAlgebra() != op.getAlgebra() ||
        inner.getBladeAxis() != op.getBladeAxis())
      return rewriter.notifyMatchFailure(
          op, "inner projection has another algebra or blade_axis");

    // Both lists are verified ascending, so the intersection is too.
    SmallVector<int64_t> common;
    std::set_intersection(op.getGrades().begin(), op.getGrades().end(),
                          inner.getGrades().begin(), inner.getGrades().end(),
                          std::back_inserter(common));

    if (common.empty()) {
      auto type = cast<RankedTensorType>(op.getType());
      auto zero = DenseElementsAttr::get(
          type, rewriter.getZeroAttr(type.getElementType()));
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, zero);
      return success();
    }
    // The outer projection removes nothing the inner one kept.
    if (ArrayRef<int64_t>(common) == inner.getGrades()) {
      rewriter.replaceOp(op, inner.getResult());
      return success();
    }
    rewriter.replaceOpWithNewOp<GradeProjectOp>(
        op, op.getType(), op.getAlgebra(), inner.getInput(), common,
        op.getBladeAxis());
    return success();
  }
};
} // namespace

void GradeProjectOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                 MLIRContext *context) {
  results.add<MergeGradeProjections>(context);
}

namespace {
/// fc_product_pair_adjoints of which one result is read is the single
/// adjoint that gives that result: the kernel then computes and writes
/// half as much.
struct SplitUnreadPairAdjoint final
    : OpRewritePattern<FcProductPairAdjointsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FcProductPairAdjointsOp op,
                                PatternRewriter &rewriter) const override {
    bool lhsRead = !op.getLhsGradient().use_empty();
    bool rhsRead = !op.getRhsGradient().use_empty();
    if (lhsRead == rhsRead)
      return rewriter.notifyMatchFailure(
          op, "both results are read, or neither (then it is dead)");
    // The gradient of x scales y's blades, and y's x's.
    ProductOperand operand =
        lhsRead ? ProductOperand::lhs : ProductOperand::rhs;
    Value read = lhsRead ? op.getLhsGradient() : op.getRhsGradient();
    auto single = FcProductPairAdjointOp::create(
        rewriter, op.getLoc(), read.getType(), op.getAlgebraAttr(),
        ProductOperandAttr::get(op.getContext(), operand), op.getPairs(),
        lhsRead ? op.getRhs() : op.getLhs(), op.getBladeAxisAttr());
    rewriter.replaceAllUsesWith(read, single.getResult());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void FcProductPairAdjointsOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<SplitUnreadPairAdjoint>(context);
}
