//===- SplitReductions.cpp - Long reductions to few outputs in two steps --===//
//
// uta-split-reductions: a reduction kernel runs one thread per output
// element, which loops over that element's reduced elements. A reduction
// of many elements to few outputs (a bias gradient: [8, 8192, 512] summed
// to [512]) then runs on a handful of blocks, each thread a long serial
// loop. This pass splits the reduced leading extent R into C runs of L
// elements: reduce(x) -> reduce(reduce(reshape(x, [C, L, ...]), [1]), [0]),
// so that C times as many threads share the first step and the second
// sums C partial results. Both steps sum in index order: the result is the
// same on every run (not the same rounding as one long sum).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPLITREDUCTIONSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The threads the first step aims for: enough to keep a GPU's memory busy.
constexpr int64_t kTargetThreads = int64_t(1) << 17;
/// Reductions of fewer elements per output stay whole: their loops are
/// short enough, and the split's second step would cost a launch.
constexpr int64_t kMinReducedExtent = 4096;
/// The shortest run a thread of the first step sums.
constexpr int64_t kMinRun = 16;

/// The number of runs C to split `reduced` elements into for `outputs`
/// outputs: a divisor of `reduced` near kTargetThreads / outputs with runs
/// of at least kMinRun; 0 where the reduction stays whole.
int64_t chooseRuns(int64_t reduced, int64_t outputs) {
  if (reduced < kMinReducedExtent || outputs >= kTargetThreads)
    return 0;
  int64_t wanted = std::min<int64_t>(llvm::divideCeil(kTargetThreads, outputs),
                                     reduced / kMinRun);
  for (int64_t runs = wanted; runs >= 2; --runs)
    if (reduced % runs == 0)
      return runs;
  return 0;
}

/// reduce_sum / reduce_max over a leading block of dimensions [0, r) of
/// many elements to few outputs -> the two-step reduction.
template <typename ReduceOp>
struct SplitLongReduction final : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    ArrayRef<int64_t> shape = inputType.getShape();
    ArrayRef<int64_t> dims = op.getDims();
    for (auto [position, dim] : llvm::enumerate(dims))
      if (dim != int64_t(position))
        return rewriter.notifyMatchFailure(
            op, "the reduced dimensions are not a leading block");
    ArrayRef<int64_t> kept = shape.drop_front(dims.size());
    int64_t reduced = 1, outputs = 1;
    for (int64_t size : shape.take_front(dims.size()))
      reduced *= size;
    for (int64_t size : kept)
      outputs *= size;
    int64_t runs = chooseRuns(reduced, outputs);
    if (runs == 0)
      return rewriter.notifyMatchFailure(op, "short enough to stay whole");

    Location loc = op.getLoc();
    SmallVector<int64_t> split = {runs, reduced / runs};
    split.append(kept.begin(), kept.end());
    Value runsOfInput =
        ReshapeOp::create(rewriter, loc, inputType.clone(split), op.getInput());
    Value partial = ReduceOp::create(rewriter, loc, runsOfInput,
                                     ArrayRef<int64_t>{1}, /*keepDims=*/false);
    Value total = ReduceOp::create(rewriter, loc, partial, ArrayRef<int64_t>{0},
                                   /*keepDims=*/false);
    if (total.getType() != op.getType())
      total = ReshapeOp::create(rewriter, loc, op.getType(), total);
    rewriter.replaceOp(op, total);
    return success();
  }
};

struct UTASplitReductionsPass final
    : mlir::uta::impl::UTASplitReductionsPassBase<UTASplitReductionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSplitReductionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::uta::populateSplitReductionPatterns(RewritePatternSet &patterns) {
  patterns
      .add<SplitLongReduction<ReduceSumOp>, SplitLongReduction<ReduceMaxOp>>(
          patterns.getContext());
}
