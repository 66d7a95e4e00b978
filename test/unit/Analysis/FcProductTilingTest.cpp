//===- FcProductTilingTest.cpp - fc_product's plan at extreme sizes -------===//
//
// The plan's arithmetic is overflow-checked: sizes up to INT64_MAX give a
// plan with positive tiles (PowerOf2Ceil of a size past 2^62 wrapped to 0,
// and a tile of 0 rows was a division by zero: SIGFPE), and a thread count
// past int64 saturates at INT64_MAX, which the lowering refuses, instead of
// wrapping to a small or negative count.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/FcProductTiling.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace mlir::uta;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

/// Every blade of Cl(2, 0) possibly non-zero.
constexpr uint64_t kAllBlades = ~uint64_t(0);

TEST(FcProductTiling, HugeBatchGivesPositiveTiles) {
  ::uta::ga::Algebra algebra = *::uta::ga::Algebra::get(2, 0, 0);
  for (int64_t batch : {int64_t(1) << 40, (int64_t(1) << 62) + 1, kMax}) {
    FcProductTiling plan =
        getFcProductTiling(algebra, kAllBlades, kAllBlades, batch, 8, 8);
    EXPECT_GE(plan.tileRows, 1) << batch;
    EXPECT_GE(plan.rowThreads, 1) << batch;
    EXPECT_GE(plan.colThreads, 1) << batch;
    EXPECT_LE(plan.threads, kFcProductMaxThreads) << batch;
    EXPECT_GE(plan.rowTiles, 1) << batch;
    EXPECT_GT(plan.getNumThreads(), int64_t(1) << 31) << batch;
  }
}

TEST(FcProductTiling, ThreadCountSaturatesInsteadOfWrapping) {
  ::uta::ga::Algebra algebra = *::uta::ga::Algebra::get(2, 0, 0);
  FcProductTiling plan =
      getFcProductTiling(algebra, kAllBlades, kAllBlades, kMax, 1, kMax);
  EXPECT_GE(plan.colThreads, 1);
  EXPECT_EQ(plan.getNumBlocks(), kMax);
  EXPECT_EQ(plan.getNumThreads(), kMax);
}

TEST(FcProductTiling, SmallSizesKeepTheirPlan) {
  // 509 rows by 47 outputs of Cl(2, 0) (the FCGP example): a plan whose
  // blocks cover the rows and outputs exactly once over.
  ::uta::ga::Algebra algebra = *::uta::ga::Algebra::get(2, 0, 0);
  FcProductTiling plan =
      getFcProductTiling(algebra, kAllBlades, kAllBlades, 509, 61, 47);
  EXPECT_EQ(plan.blockRows, plan.rowThreads * plan.tileRows);
  EXPECT_EQ(plan.blockCols, plan.colThreads * plan.tileCols);
  EXPECT_EQ(plan.rowTiles, (509 + plan.blockRows - 1) / plan.blockRows);
  EXPECT_EQ(plan.colTiles, (47 + plan.blockCols - 1) / plan.blockCols);
  EXPECT_EQ(plan.getNumThreads(), plan.rowTiles * plan.colTiles * plan.threads);
}

} // namespace
