//===- SimplifyGrades.cpp - Simplify clifford ops by their known blades ---===//
//
// clifford-simplify-grades: the eliminations of the `uta` phase that need
// the grade analysis. Projections of values whose blades are known fold to
// the value or to zero, results that the analysis proves zero become zero
// constants, and every product (and every adjoint of a product) records the
// blades its operands may have so that the lowering expands only the Cayley
// terms that can be non-zero.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "passes/Analysis/GradeAnalysis.h"

#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_CLIFFORDSIMPLIFYGRADESPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;

/// Replaces `op` by a zero constant of its result type.
static void replaceWithZero(PatternRewriter &rewriter, Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto zero =
      DenseElementsAttr::get(type, rewriter.getZeroAttr(type.getElementType()));
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, zero);
}

namespace {

/// grade_project(x) -> x when x may only have blades of the kept grades,
/// and -> zero when it may have none of them.
struct FoldProjectionOfKnownBlades final : OpRewritePattern<GradeProjectOp> {
  FoldProjectionOfKnownBlades(MLIRContext *context, GradeAnalysis &analysis)
      : OpRewritePattern(context), analysis(analysis) {}

  LogicalResult matchAndRewrite(GradeProjectOp op,
                                PatternRewriter &rewriter) const override {
    uint64_t blades = analysis.getBlades(op.getInput(), op.getBladeAxis());
    uint64_t kept =
        getGradeBlades(op.getAlgebra().getAlgebra(), op.getGrades());
    if ((blades & ~kept) == 0) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    if ((blades & kept) == 0) {
      replaceWithZero(rewriter, op);
      return success();
    }
    return rewriter.notifyMatchFailure(
        op, "the input may have blades of kept and of dropped grades");
  }

  GradeAnalysis &analysis;
};

/// Any clifford op (grade_project aside, see above) whose result has no
/// blade that may be non-zero -> a zero constant.
struct ZeroProvablyZeroResult final : RewritePattern {
  ZeroProvablyZeroResult(MLIRContext *context, GradeAnalysis &analysis)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        analysis(analysis) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> axis = getBladeAxis(op);
    // (An op of two results, fc_product_pair_adjoints, is not one zero.)
    if (!axis || isa<GradeProjectOp>(op) || op->getNumResults() != 1)
      return failure();
    if (analysis.getBlades(op->getResult(0), *axis) != 0)
      return rewriter.notifyMatchFailure(op, "a blade may be non-zero");
    replaceWithZero(rewriter, op);
    return success();
  }

  GradeAnalysis &analysis;
};

/// The set `known` narrowed by the set `current` recorded on the op, or null
/// when the result would record nothing new (every blade, or no change).
static BladeSetAttr narrowBladeSet(MLIRContext *context, BladeSetAttr current,
                                   uint64_t known, int64_t numBlades) {
  uint64_t all = getAllBlades(numBlades);
  uint64_t previous = current ? current.getBlades() : all;
  uint64_t narrowed = previous & known;
  if (narrowed == previous)
    return {};
  return BladeSetAttr::get(context, narrowed);
}

/// Records on a product the blades its lhs and rhs may have.
template <typename OpTy>
struct RecordProductOperandBlades final : OpRewritePattern<OpTy> {
  RecordProductOperandBlades(MLIRContext *context, GradeAnalysis &analysis)
      : OpRewritePattern<OpTy>(context), analysis(analysis) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    int64_t axis = op.getBladeAxis();
    int64_t blades = op.getAlgebra().getNumBlades();
    BladeSetAttr lhs =
        narrowBladeSet(op.getContext(), op.getLhsBladesAttr(),
                       analysis.getBlades(op.getLhs(), axis), blades);
    BladeSetAttr rhs =
        narrowBladeSet(op.getContext(), op.getRhsBladesAttr(),
                       analysis.getBlades(op.getRhs(), axis), blades);
    if (!lhs && !rhs)
      return rewriter.notifyMatchFailure(op, "no operand blades to record");
    rewriter.modifyOpInPlace(op, [&] {
      if (lhs)
        op.setLhsBladesAttr(lhs);
      if (rhs)
        op.setRhsBladesAttr(rhs);
    });
    return success();
  }

  GradeAnalysis &analysis;
};

/// Records on a sandwich the blades its rotor and input may have.
struct RecordSandwichOperandBlades final : OpRewritePattern<SandwichOp> {
  RecordSandwichOperandBlades(MLIRContext *context, GradeAnalysis &analysis)
      : OpRewritePattern(context), analysis(analysis) {}

  LogicalResult matchAndRewrite(SandwichOp op,
                                PatternRewriter &rewriter) const override {
    int64_t axis = op.getBladeAxis();
    int64_t blades = op.getAlgebra().getNumBlades();
    BladeSetAttr rotor =
        narrowBladeSet(op.getContext(), op.getRotorBladesAttr(),
                       analysis.getBlades(op.getRotor(), axis), blades);
    BladeSetAttr input =
        narrowBladeSet(op.getContext(), op.getInputBladesAttr(),
                       analysis.getBlades(op.getInput(), axis), blades);
    if (!rotor && !input)
      return rewriter.notifyMatchFailure(op, "no operand blades to record");
    rewriter.modifyOpInPlace(op, [&] {
      if (rotor)
        op.setRotorBladesAttr(rotor);
      if (input)
        op.setInputBladesAttr(input);
    });
    return success();
  }

  GradeAnalysis &analysis;
};

/// Records on an adjoint of a product (product_adjoint,
/// weighted_product_adjoint) the blades its cotangent and other operand may
/// have. The cotangent of a scalar product has one blade, so its set is one
/// of {0} and {}.
template <typename OpTy>
struct RecordAdjointOperandBlades final : OpRewritePattern<OpTy> {
  RecordAdjointOperandBlades(MLIRContext *context, GradeAnalysis &analysis)
      : OpRewritePattern<OpTy>(context), analysis(analysis) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    int64_t axis = op.getBladeAxis();
    int64_t cotangentBlades = op.getCotangent().getType().getDimSize(axis);
    BladeSetAttr cotangent = narrowBladeSet(
        op.getContext(), op.getCotangentBladesAttr(),
        analysis.getBlades(op.getCotangent(), axis), cotangentBlades);
    BladeSetAttr other =
        narrowBladeSet(op.getContext(), op.getOtherBladesAttr(),
                       analysis.getBlades(op.getOther(), axis),
                       op.getAlgebra().getNumBlades());
    if (!cotangent && !other)
      return rewriter.notifyMatchFailure(op, "no operand blades to record");
    rewriter.modifyOpInPlace(op, [&] {
      if (cotangent)
        op.setCotangentBladesAttr(cotangent);
      if (other)
        op.setOtherBladesAttr(other);
    });
    return success();
  }

  GradeAnalysis &analysis;
};

/// Keeps the analysis sound while the driver rewrites: an erased op's
/// address may come back as a new op, so its answers must go.
struct ForgetErasedOps final : RewriterBase::Listener {
  explicit ForgetErasedOps(GradeAnalysis &analysis) : analysis(analysis) {}
  void notifyOperationErased(Operation *) override { analysis.forget(); }
  GradeAnalysis &analysis;
};

struct CliffordSimplifyGradesPass final
    : mlir::uta::impl::CliffordSimplifyGradesPassBase<
          CliffordSimplifyGradesPass> {
  void runOnOperation() override {
    GradeAnalysis analysis;
    RewritePatternSet patterns(&getContext());
    populateCliffordSimplifyGradesPatterns(patterns, analysis);
    ForgetErasedOps listener(analysis);
    // Only these rewrites: folding and constant CSE are the canonicalizer's.
    GreedyRewriteConfig config;
    config.setListener(&listener).enableFolding(false).enableConstantCSE(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::uta::populateCliffordSimplifyGradesPatterns(
    RewritePatternSet &patterns, GradeAnalysis &analysis) {
  MLIRContext *context = patterns.getContext();
  patterns.add<FoldProjectionOfKnownBlades, ZeroProvablyZeroResult,
               RecordSandwichOperandBlades,
               RecordProductOperandBlades<GeometricProductOp>,
               RecordProductOperandBlades<OuterProductOp>,
               RecordProductOperandBlades<LeftContractionOp>,
               RecordProductOperandBlades<ScalarProductOp>,
               RecordProductOperandBlades<WeightedProductOp>,
               RecordProductOperandBlades<FcProductOp>,
               RecordAdjointOperandBlades<ProductAdjointOp>,
               RecordAdjointOperandBlades<WeightedProductAdjointOp>>(context,
                                                                     analysis);
}
