//===- GuardLoopResults.cpp - Defined results of zero-trip loops ----------===//
//
// SCFToSPIRV lowers the results of an scf.for to Function variables stored
// by the loop body and loaded after the loop; a loop that runs zero times
// leaves them unwritten, and reading them is undefined. Putting the loop
// under `scf.if (lower < upper)` whose else branch yields the initial values
// makes the results defined on every path (the if's results are stored on
// both branches). Found on an H100, where a 64-thread row reduction summed
// garbage from the threads past the end of a 47-element row.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVGUARDLOOPRESULTSPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

/// Whether `loop` certainly runs at least once: constant bounds, lower
/// below upper in the loop's own comparison.
static bool runsAtLeastOnce(scf::ForOp loop) {
  APInt lower, upper;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&upper)))
    return false;
  return loop.getUnsignedCmp() ? lower.ult(upper) : lower.slt(upper);
}

static void guardLoop(RewriterBase &rewriter, scf::ForOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value runs =
      arith::CmpIOp::create(rewriter, loc,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  auto guard = scf::IfOp::create(rewriter, loc, loop.getResultTypes(), runs,
                                 /*addThenBlock=*/true,
                                 /*addElseBlock=*/true);
  rewriter.replaceAllUsesWith(loop.getResults(), guard.getResults());
  rewriter.moveOpBefore(loop, guard.thenBlock(), guard.thenBlock()->end());
  rewriter.setInsertionPointToEnd(guard.thenBlock());
  scf::YieldOp::create(rewriter, loc, loop.getResults());
  rewriter.setInsertionPointToEnd(guard.elseBlock());
  scf::YieldOp::create(rewriter, loc, loop.getInitArgs());
}

namespace {
struct UTASPIRVGuardLoopResultsPass final
    : uta::impl::UTASPIRVGuardLoopResultsPassBase<
          UTASPIRVGuardLoopResultsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop.getNumResults() > 0 && !runsAtLeastOnce(loop))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      guardLoop(rewriter, loop);
  }
};
} // namespace
