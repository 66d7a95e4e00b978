//===- FcProductTiling.cpp - How fc_product's kernel tiles its work -------===//
//
// The plan of FcProductTiling.h. The register tile comes first: as many
// (row, output) pairs per thread as kFcProductMaxAccumulators allows for the
// result blades, up to 4 outputs (each weight load then serves the thread's
// rows and blades, each staged value its outputs). A warp spans 32 output
// columns when Fout has them, so that its threads read the same staged
// value (a broadcast) and consecutive weights. The rows fill the block up to
// kFcProductMaxThreads, or only as far as B needs. Then the stage: the rows
// shrink until a chunk of a few input features fits in
// kFcProductMaxStageValues, and the chunk is the largest power of two that
// fits.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/FcProductTiling.h"
#include "passes/Analysis/GradeAnalysis.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/Interfaces/KernelOpInterface.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <bit>
#include <limits>

using namespace mlir;
using namespace mlir::uta;
using ::uta::ga::Algebra;

/// The fewest input features a chunk should hold, so that the two barriers
/// of a chunk are amortized; the rows shrink before the chunk does.
static constexpr int64_t kMinChunk = 4;

FcProductTiling mlir::uta::getFcProductTiling(const Algebra &algebra,
                                              uint64_t lhsBlades,
                                              uint64_t rhsBlades, int64_t batch,
                                              int64_t inFeatures,
                                              int64_t outFeatures) {
  FcProductTiling plan;
  unsigned blades = algebra.numBlades();

  // The result blades each path reaches from the operands' blades.
  SmallVector<uint64_t> bladesOfPath(algebra.numPaths(), 0);
  forEachProductTerm(
      algebra, ProductTerms::Geometric, lhsBlades, rhsBlades,
      [&](unsigned i, unsigned j, ::uta::ga::BladeProduct product) {
        std::optional<unsigned> path = algebra.pathIndex(
            algebra.grade(i), algebra.grade(product.blade), algebra.grade(j));
        if (path)
          bladesOfPath[*path] |= uint64_t(1) << product.blade;
      });
  for (auto [path, mask] : llvm::enumerate(bladesOfPath))
    for (unsigned blade = 0; blade < blades; ++blade)
      if ((mask >> blade) & 1)
        plan.slots.push_back({static_cast<unsigned>(path), blade});
  for (uint64_t mask : bladesOfPath)
    plan.resultBlades |= mask;

  int64_t resultBlades = std::max(1, std::popcount(plan.resultBlades));
  int64_t outputsPerThread =
      std::max<int64_t>(1, llvm::bit_floor(static_cast<uint64_t>(
                               kFcProductMaxAccumulators / resultBlades)));
  plan.tileCols = std::min<int64_t>(outputsPerThread, 4);
  // Narrow outputs: fewer per thread, so that a warp's columns are used.
  while (plan.tileCols > 1 && outFeatures <= plan.tileCols / 2 * 32)
    plan.tileCols /= 2;
  // The sizes are clamped to what the block can use before they are
  // rounded up to powers of two: PowerOf2Ceil of a size past 2^62 wraps to
  // 0, and a tile of 0 rows divided by zero below (a huge batch was SIGFPE).
  auto roundUp = [](int64_t size, int64_t most) {
    return static_cast<int64_t>(llvm::PowerOf2Ceil(
        static_cast<uint64_t>(std::clamp<int64_t>(size, 1, most))));
  };
  // Rows per thread: the rest of the register tile, no more than B needs.
  plan.tileRows = std::min<int64_t>(outputsPerThread / plan.tileCols,
                                    roundUp(batch, kFcProductMaxAccumulators));
  plan.colThreads = roundUp(
      llvm::divideCeil(std::max<int64_t>(outFeatures, 0), plan.tileCols), 32);
  plan.rowThreads =
      roundUp(llvm::divideCeil(std::max<int64_t>(batch, 0), plan.tileRows),
              kFcProductMaxThreads / plan.colThreads);

  int64_t slots = std::max<int64_t>(1, plan.slots.size());
  int64_t minChunk = std::clamp<int64_t>(inFeatures, 1, kMinChunk);
  while (plan.rowThreads * plan.tileRows * slots * minChunk >
         kFcProductMaxStageValues) {
    if (plan.tileRows > 1)
      plan.tileRows /= 2;
    else if (plan.rowThreads > 1)
      plan.rowThreads /= 2;
    else
      break;
  }
  plan.threads = plan.colThreads * plan.rowThreads;
  plan.blockRows = plan.rowThreads * plan.tileRows;
  plan.blockCols = plan.colThreads * plan.tileCols;
  int64_t fits =
      std::max<int64_t>(1, kFcProductMaxStageValues / (plan.blockRows * slots));
  plan.chunk = std::clamp<int64_t>(
      static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(fits))), 1,
      std::max<int64_t>(1, inFeatures));
  plan.rowTiles = llvm::divideCeil(std::max<int64_t>(batch, 0), plan.blockRows);
  plan.colTiles =
      llvm::divideCeil(std::max<int64_t>(outFeatures, 0), plan.blockCols);
  return plan;
}

FcProductTiling mlir::uta::getFcProductTiling(clifford::FcProductOp op) {
  auto mask = [](clifford::BladeSetAttr set) {
    return set ? set.getBlades() : ~uint64_t(0);
  };
  ArrayRef<int64_t> lhs =
      cast<RankedTensorType>(op.getLhs().getType()).getShape();
  ArrayRef<int64_t> result =
      cast<RankedTensorType>(op.getResult().getType()).getShape();
  return getFcProductTiling(
      op.getAlgebra().getAlgebra(), mask(op.getLhsBladesAttr()),
      mask(op.getRhsBladesAttr()), lhs[1], lhs[2], result[2]);
}

int64_t FcProductTiling::getNumBlocks() const {
  return getElementCount({rowTiles, colTiles})
      .value_or(std::numeric_limits<int64_t>::max());
}

int64_t FcProductTiling::getNumThreads() const {
  return getElementCount({rowTiles, colTiles, threads})
      .value_or(std::numeric_limits<int64_t>::max());
}
