//===- TensorCoreLayouts.cpp - Operand layouts for the Hopper tensor cores ===//
//
// uta-tensor-core-layouts: on sm_90a the tensor cores (wgmma) read f32
// operands from shared memory only K-major, as stored, and cannot transpose
// them. fc_product's weights are stored [P, Fin, Fout], N-major, so every
// block of its GEMM would transpose each weight tile it reads, once per
// row tile of the batch. This pass makes the weights K-major once per call
// instead: fc_product(x, y, w) becomes fc_product(x, y, transpose(w))
// {transpose_weights}, a copy kernel of the weights before the product (none
// where w is itself such a transpose). For plain TF32 products the copy
// also rounds the weights to TF32, which the tensor cores would truncate.
// Likewise fc_product_weight_gradient takes its pairs and its cotangent
// batch-contiguous (transpose_pairs, transpose_cotangent): every operand is
// then K-major, and the op runs on fc_product's warp-specialised kernel.
// (Matmuls get their layouts from the GEMM engine's planner:
// uta-gemm-layouts.)
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "passes/Transforms/FcProductRows.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTATENSORCORELAYOUTSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// Swaps the last two axes: the weights' [P, Fin, Fout] <-> [P, Fout, Fin], and
/// the weight gradient's pairs [2^n, B, Fin] <-> [2^n, Fin, B].
constexpr int64_t kSwapLastTwoAxes[] = {0, 2, 1};

/// fc_product with f32 weights [P, Fin, Fout] -> the same product of the
/// weights transposed to [P, Fout, Fin], where its rows suit the tensor
/// cores' copies (hasTensorMapRows).
struct KMajorFcProductWeights final : OpRewritePattern<clifford::FcProductOp> {
  KMajorFcProductWeights(MLIRContext *context, bool roundToTf32)
      : OpRewritePattern(context), roundToTf32(roundToTf32) {}

  LogicalResult matchAndRewrite(clifford::FcProductOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTransposeWeights())
      return rewriter.notifyMatchFailure(op, "weights already K-major");
    if (!hasTensorMapRows(op))
      return rewriter.notifyMatchFailure(
          op, "not f32, or rows of input features that are not a multiple "
              "of 16 bytes");
    Value kMajor;
    // A transpose that rounds changes the values: its input is not the
    // weights.
    auto producer = op.getWeights().getDefiningOp<TransposeOp>();
    if (producer && !producer.getRoundToTf32() &&
        producer.getPermutation() == ArrayRef(kSwapLastTwoAxes))
      kMajor = producer.getInput();
    else {
      auto copy = TransposeOp::create(rewriter, op.getLoc(), op.getWeights(),
                                      kSwapLastTwoAxes);
      copy.setRoundToTf32(roundToTf32);
      kMajor = copy;
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.getWeightsMutable().assign(kMajor);
      op.setTransposeWeights(true);
    });
    return success();
  }

  bool roundToTf32;
};

/// fc_product_weight_gradient with f32 pairs [2^n, B, Fin] and cotangent
/// [2^n, B, Fout] -> the same gradient of them transposed to [2^n, Fin, B]
/// and [2^n, Fout, B] (transpose_pairs, transpose_cotangent), where the
/// batch makes 16-byte rows: the tensor cores then read every operand
/// K-major as fc_product reads its own (TMA and wgmma on sm_90a, ldmatrix on
/// mma.sync), instead of transposing x and y element by element from shared
/// memory in every block.
struct BatchContiguousWeightGradientPairs final
    : OpRewritePattern<clifford::FcProductWeightGradientOp> {
  BatchContiguousWeightGradientPairs(MLIRContext *context, bool roundToTf32)
      : OpRewritePattern(context), roundToTf32(roundToTf32) {}

  LogicalResult matchAndRewrite(clifford::FcProductWeightGradientOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTransposePairs() || op.getTransposeCotangent())
      return rewriter.notifyMatchFailure(op, "operands already transposed");
    auto type = cast<RankedTensorType>(op.getLhs().getType());
    if (!type.getElementType().isF32() || type.getDimSize(1) % 4 != 0)
      return rewriter.notifyMatchFailure(
          op, "not f32, or a batch that does not make 16-byte rows");
    auto transposed = [&](Value pairs) -> Value {
      auto producer = pairs.getDefiningOp<TransposeOp>();
      if (producer && !producer.getRoundToTf32() &&
          producer.getPermutation() == ArrayRef(kSwapLastTwoAxes))
        return producer.getInput();
      return TransposeOp::create(rewriter, op.getLoc(), pairs,
                                 kSwapLastTwoAxes);
    };
    Value lhs = transposed(op.getLhs());
    Value rhs = op.getRhs() == op.getLhs() ? lhs : transposed(op.getRhs());
    // The cotangent is the kernel's B, which plain TF32 products read
    // truncated: its copy rounds it (the pairs, A's factors, are multiplied
    // in f32 and rounded as products).
    Value cotangent;
    if (roundToTf32) {
      auto copy = TransposeOp::create(rewriter, op.getLoc(), op.getCotangent(),
                                      kSwapLastTwoAxes);
      copy.setRoundToTf32(true);
      cotangent = copy;
    } else {
      cotangent = transposed(op.getCotangent());
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
      op.getCotangentMutable().assign(cotangent);
      op.setTransposePairs(true);
      op.setTransposeCotangent(true);
    });
    return success();
  }

  bool roundToTf32;
};

/// Plain TF32: fc_product_pair_cotangents' weights, its GEMM's B, which the
/// tensor cores would read truncated, through a copy rounded to TF32 (a
/// transpose of the identity permutation that rounds). They are already
/// K-major ([P, Fin, Fout], K the output features).
struct RoundedPairCotangentWeights final
    : OpRewritePattern<clifford::FcProductPairCotangentsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(clifford::FcProductPairCotangentsOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getWeights().getType());
    if (!type.getElementType().isF32() || op.getTransposeWeights())
      return rewriter.notifyMatchFailure(op, "not f32 K-major weights");
    auto producer = op.getWeights().getDefiningOp<TransposeOp>();
    if (producer && producer.getRoundToTf32())
      return rewriter.notifyMatchFailure(op, "weights already rounded");
    const int64_t identity[] = {0, 1, 2};
    auto copy =
        TransposeOp::create(rewriter, op.getLoc(), op.getWeights(), identity);
    copy.setRoundToTf32(true);
    rewriter.modifyOpInPlace(op, [&] { op.getWeightsMutable().assign(copy); });
    return success();
  }
};

struct UTATensorCoreLayoutsPass final
    : mlir::uta::impl::UTATensorCoreLayoutsPassBase<UTATensorCoreLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTensorCoreLayoutPatterns(patterns, roundToTf32);
    // matmul's fold takes a transpose of A back into transpose_a: the
    // layouts made here are undone by folding, so this pass does not fold
    // (and the pipelines run no folding pass between it and the lowering).
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::uta::populateTensorCoreLayoutPatterns(RewritePatternSet &patterns,
                                                 bool roundToTf32) {
  patterns.add<KMajorFcProductWeights>(patterns.getContext(), roundToTf32);
  patterns.add<BatchContiguousWeightGradientPairs>(patterns.getContext(),
                                                   roundToTf32);
  if (roundToTf32)
    patterns.add<RoundedPairCotangentWeights>(patterns.getContext());
}
