//===- FcProductPlan.cpp - fc_product's table and plan on the GEMM engine -===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductPlan.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::uta;

/// fc_product's configurations, preferred first: K tiles of 16 (the x and y
/// tiles of every term share a stage with the weights' tile), 4 warps.
/// 3xTF32 keeps a second set of accumulators: 64-column warp tiles are for
/// plain TF32 only.
static const GemmConfigRow kFcProductRows[] = {
    {{GemmSchedule::MmaSync, 128, 128, 16, 2, 2, 3, "fc128x128x16"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::MmaSync, 128, 64, 16, 2, 2, 3, "fc128x64x16"}, 4},
    {{GemmSchedule::MmaSync, 128, 64, 16, 2, 2, 2, "fc128x64x16s2"}, 4},
    {{GemmSchedule::MmaSync, 64, 64, 16, 2, 2, 2, "fc64x64x16"}, 4},
};

/// fc_product's wgmma rows (sm_90a), stages of an x and a y tile per term
/// and the weights' tile. Every block of a result blade and row tile reads
/// the same x and y tiles from L2 for each of its column tiles, so plain
/// TF32 takes 256 columns with K tiles of 16 (the 64-byte swizzle), which
/// fits three stages and double-buffered formed tiles; 3xTF32 keeps fresh
/// accumulators and remainder tiles: 128x128 with K tiles of 32 (the
/// 128-byte swizzle) in two stages.
static const GemmConfigRow kFcProductWgmmaRows[] = {
    {{GemmSchedule::Wgmma, 128, 256, 16, 2, 1, 4, "fcwgmma128x256x16s4"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::Wgmma, 128, 256, 16, 2, 1, 3, "fcwgmma128x256x16"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::Wgmma, 128, 128, 32, 2, 1, 2, "fcwgmma128x128x32"}, 4},
    {{GemmSchedule::Wgmma, 64, 128, 32, 1, 1, 2, "fcwgmma64x128x32"}, 4},
};

/// fc_product's warp-specialised rows (sm_90a, K-major weights): stages of
/// one term's x and y tiles (32 KiB at 128 rows) and bStages weight
/// tiles. Plain TF32 takes 256 columns, as the TMA GEMM does, and three
/// weight stages (measured on an H200, FCGP TF32 fc_product Cl(3,0): 0.387
/// against 0.416 ms with two); 3xTF32 keeps fresh accumulators beside the
/// running ones: 128 columns, where a third weight stage did not pay
/// (1.046 against 1.045 ms).
static const GemmConfigRow kFcProductWgmmaTmaRows[] = {
    {{GemmSchedule::WgmmaTma, 128, 256, 32, 2, 1, 4, "fctma128x256x32", 3},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 128, 128, 32, 2, 1, 4, "fctma128x128x32", 2}, 4},
};

/// Warp-specialised fc_product rows the heuristic does not pick, by name
/// (sN: N term stages, wN: N weight stages).
static const GemmConfigRow kFcProductWgmmaTmaCandidates[] = {
    {{GemmSchedule::WgmmaTma, 128, 256, 32, 2, 1, 4, "fctma128x256x32w2", 2},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 128, 256, 32, 2, 1, 3, "fctma128x256x32s3w4", 4},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 128, 128, 32, 2, 1, 4, "fctma128x128x32w3", 3},
     4},
    {{GemmSchedule::WgmmaTma, 128, 128, 32, 2, 1, 5, "fctma128x128x32s5", 2},
     4},
};

/// fc_product's wgmma rows the heuristic does not pick, by name: two stages
/// of 128x128 with K tiles of 16 fit two blocks on an SM (TF32).
static const GemmConfigRow kFcProductWgmmaCandidates[] = {
    {{GemmSchedule::Wgmma, 128, 128, 16, 2, 1, 2, "fcwgmma128x128x16s2"},
     4,
     GemmPrecision::Tf32},
};

ArrayRef<GemmConfigRow> mlir::uta::getFcProductConfigTable() {
  static const SmallVector<GemmConfigRow> table = [] {
    SmallVector<GemmConfigRow> rows;
    for (ArrayRef<GemmConfigRow> part :
         {ArrayRef(kFcProductRows), ArrayRef(kFcProductWgmmaRows),
          ArrayRef(kFcProductWgmmaCandidates), ArrayRef(kFcProductWgmmaTmaRows),
          ArrayRef(kFcProductWgmmaTmaCandidates)})
      llvm::append_range(rows, part);
    return rows;
  }();
  return table;
}

int64_t FcProductPlan::getFormedTileSets() const {
  return gemm.precision == GemmPrecision::Tf32 ? 2 : 1;
}

int64_t FcProductPlan::getMinStages() const {
  bool weightsInPlace =
      gemm.config.schedule == GemmSchedule::Wgmma && gemm.problem.transposeB;
  return weightsInPlace && getFormedTileSets() == 2 ? 3 : 1;
}

int64_t FcProductPlan::getSharedMemoryBytes() const {
  const GemmConfig &c = gemm.config;
  unsigned elementBytes = gemm.problem.getElementBytes();
  bool split = gemm.precision == GemmPrecision::Tf32x3;
  int64_t aBytes = c.tileM * c.tileK * elementBytes;
  int64_t bBytes = c.tileN * c.tileK * elementBytes;
  // The warp-specialised schedule: x and y tiles of a term per stage, the
  // weights (3xTF32: and their remainders) in stages of their own, and an
  // mbarrier per stage of either.
  if (c.schedule == GemmSchedule::WgmmaTma) {
    int64_t bytes =
        c.stages * 2 * aBytes + c.bStages * bBytes * (split ? 2 : 1);
    return llvm::alignTo(bytes + gemm.getRegisterAHoldBytes(), 128) +
           (c.stages + c.bStages) * 8;
  }
  int64_t bytes = c.stages * (aTilesPerStage * aBytes + bBytes);
  if (c.schedule != GemmSchedule::Wgmma)
    return bytes;
  // wgmma's formed tiles: A, and the weights made K-major where they are
  // stored [K][N] (K-major weights are read where they are staged);
  // 3xTF32's remainders of A and B.
  bytes +=
      (aBytes + (gemm.problem.transposeB ? 0 : bBytes)) * getFormedTileSets();
  if (split)
    bytes += aBytes + bBytes;
  // The mbarriers of the TMA copies, one per stage, in their own aligned
  // buffer.
  if (tmaRows)
    bytes = llvm::alignTo(bytes, 128) + c.stages * 8;
  return bytes;
}

std::string FcProductPlan::describe() const {
  const GemmConfig &c = gemm.config;
  std::string operands;
  llvm::raw_string_ostream os(operands);
  if (c.schedule == GemmSchedule::Wgmma) {
    if (tmaRows)
      os << "x and y tiles by TMA, ";
    if (gemm.problem.transposeB)
      os << (tmaRows ? "K-major weight tiles copied, "
                     : "x, y and K-major weight tiles copied, ")
         << "A formed in shared memory, the weights read as copied, ";
    else
      os << (tmaRows ? "weight tiles copied, "
                     : "x, y and weight tiles copied, ")
         << "A and the K-major weights formed in shared memory, ";
  } else if (c.schedule == GemmSchedule::WgmmaTma) {
    os << llvm::formatv("x and y by TMA one term per stage, K-major weights "
                        "by TMA in {0} stages, A formed in registers, ",
                        c.bStages);
    if (kTilesOuter)
      os << "steps K tile by K tile, ";
    if (clusterBlocks > 1)
      os << llvm::formatv("clusters of {0} column tiles, ", clusterBlocks);
    if (longBlocksFirstRows)
      os << llvm::formatv("the blades with most slots first in chunks of "
                          "{0} row tile{1}, ",
                          longBlocksFirstRows,
                          longBlocksFirstRows > 1 ? "s" : "");
  } else {
    os << gemm.describeOperands();
  }
  return gemm.describe(getSharedMemoryBytes(), operands);
}

/// Waves of blocks from which the warp-specialised schedule with steps K
/// tile by K tile hands out its longest blocks first in one chunk of every
/// row tile; other grids take two chunks (FcProductPlan::longBlocksFirstRows).
static constexpr int64_t kLongBlocksFirstWaves = 3;

/// The row of `rows` for `plan` (see chooseGemmConfigRow): those whose
/// kernel fits the target's shared memory and has the schedule's fewest
/// stages.
static const GemmConfigRow *chooseRow(const FcProductPlan &plan,
                                      GemmSchedule schedule,
                                      const GemmTarget &target,
                                      ArrayRef<GemmConfigRow> rows,
                                      ArrayRef<GemmConfigRow> namedOnly) {
  return chooseGemmConfigRow(
      plan.gemm, schedule, target, rows, namedOnly,
      [&](const GemmConfig &config) {
        FcProductPlan candidate = plan;
        candidate.gemm.config = config;
        return config.stages >= candidate.getMinStages() &&
               candidate.getSharedMemoryBytes() <= target.getMaxSharedBytes();
      });
}

/// The plan of `problem` before its configuration is chosen: precision
/// and async copies set.
static FcProductPlan startFcProductPlan(const GemmProblem &problem,
                                        const GemmTarget &target,
                                        int64_t termsPerSlot) {
  FcProductPlan plan;
  GemmPlan &gemm = plan.gemm;
  gemm.problem = problem;
  gemm.precision =
      target.allowTf32 ? GemmPrecision::Tf32 : GemmPrecision::Tf32x3;
  gemm.setAsyncCopies();
  plan.aTilesPerStage = 2 * termsPerSlot;
  return plan;
}

/// Whether the warp-specialised schedule can run `plan`'s problem: every
/// operand through a tensor map (16-byte strides) and the weights K-major,
/// as wgmma reads them.
static bool warpSpecialisedApplies(const FcProductPlan &plan) {
  const GemmPlan &gemm = plan.gemm;
  return gemm.problem.transposeB && gemm.asyncCopyA && gemm.asyncCopyB;
}

/// Sets what follows from the configuration: the copies by TMA, the order
/// of the steps and of the blocks, the clusters.
static void finishFcProductPlan(FcProductPlan &plan, const GemmTarget &target) {
  GemmPlan &gemm = plan.gemm;
  // TMA needs 16-byte strides, as 16-byte cp.async does (measured on an
  // H200: FCGP TF32 fc_product Cl(3,0) 0.753 -> 0.657 ms, Cl(2,0) 0.265 ->
  // 0.216).
  plan.tmaRows = gemm.config.schedule == GemmSchedule::Wgmma && gemm.asyncCopyA;
  // Measured on an H100 (fc_product of FCGP at [*, 4096, 512], three
  // interleaved rounds): steps K tile by K tile, TF32 Cl(3,0) 0.392 ->
  // 0.368 ms (DRAM reads 511 -> 327 MB), Cl(2,0) 0.126 -> 0.122; 3xTF32,
  // whose steps wait for their products, 3% slower that way.
  plan.kTilesOuter = gemm.config.schedule == GemmSchedule::WgmmaTma &&
                     gemm.precision == GemmPrecision::Tf32;
  // Clusters of the two column tiles that read the same x and y, where the
  // steps run K tile by K tile. Measured on an H200 (fc_product of FCGP at
  // [*, 4096, 512], three interleaved rounds): Cl(3,0) TF32 0.378 -> 0.371
  // ms, without the grade norm 0.366 -> 0.357; 3xTF32 0.4% slower.
  if (plan.kTilesOuter && gemm.getTilesN() % 2 == 0)
    plan.clusterBlocks = 2;
  // Long blocks first, in chunks of every row tile where the steps run K
  // tile by K tile and the grid is three waves or more, else of half of
  // them (32 row tiles): against the row-tile order, Cl(3,0) TF32 0.416 ->
  // 0.370 ms in one chunk (0.388 in two); Cl(2,0) TF32 (256 blocks) 0.123
  // -> 0.117 in two (one: 1% slower than no chunk); 3xTF32, slot by slot,
  // one chunk: Cl(3,0) 1.047 -> 1.011, Cl(2,0) 0.335 -> 0.320, and two
  // against one in another call: 1.026 -> 1.006, 0.321 -> 0.319.
  if (gemm.config.schedule == GemmSchedule::WgmmaTma) {
    int64_t tilesM = gemm.getTilesM();
    bool oneChunk =
        plan.kTilesOuter &&
        gemm.getNumBlocks() >= kLongBlocksFirstWaves * target.getNumSMs();
    plan.longBlocksFirstRows = oneChunk ? tilesM : llvm::divideCeil(tilesM, 2);
  }
}

std::optional<FcProductPlan>
mlir::uta::planFcProduct(const GemmProblem &problem, const GemmTarget &target,
                         int64_t termsPerSlot) {
  if (target.sm < 80 || !target.tensorCores || !problem.elementType.isF32())
    return std::nullopt;
  FcProductPlan plan = startFcProductPlan(problem, target, termsPerSlot);
  GemmPlan &gemm = plan.gemm;
  bool wgmma = target.archSpecific && target.sm == 90;
  // The warp-specialised schedule reads every operand through a tensor map
  // (16-byte strides) and the weights K-major, as wgmma reads them; the
  // schedule that forms A (and N-major weights) in shared memory takes the
  // other fc_products, and its rows named.
  const GemmConfigRow *chosen =
      wgmma && warpSpecialisedApplies(plan)
          ? chooseRow(plan, GemmSchedule::WgmmaTma, target,
                      kFcProductWgmmaTmaRows, kFcProductWgmmaTmaCandidates)
          : nullptr;
  if (wgmma) {
    const GemmConfigRow *formed =
        chooseRow(plan, GemmSchedule::Wgmma, target, kFcProductWgmmaRows,
                  kFcProductWgmmaCandidates);
    if (!chosen || (formed && target.config == formed->config.name))
      chosen = formed;
  }
  if (!chosen)
    chosen = chooseRow(plan, GemmSchedule::MmaSync, target, kFcProductRows,
                       /*namedOnly=*/{});
  if (!chosen)
    return std::nullopt;
  gemm.config = chosen->config;
  finishFcProductPlan(plan, target);
  return plan;
}

std::optional<FcProductPlan>
mlir::uta::planFcProductFromAttr(const GemmProblem &problem,
                                 const GemmTarget &target, int64_t termsPerSlot,
                                 GemmPlanAttr attr, std::string &whyNot) {
  if (target.sm < 80 || !target.tensorCores) {
    whyNot = "the target has no CUDA tensor cores";
    return std::nullopt;
  }
  FcProductPlan plan = startFcProductPlan(problem, target, termsPerSlot);
  whyNot = setGemmPlanFromAttr(plan.gemm, attr, getFcProductConfigTable());
  GemmSchedule schedule = plan.gemm.config.schedule;
  if (whyNot.empty() && schedule != GemmSchedule::MmaSync &&
      (!target.archSpecific || target.sm != 90))
    whyNot = "wgmma needs sm_90a";
  if (whyNot.empty() && schedule == GemmSchedule::WgmmaTma &&
      !warpSpecialisedApplies(plan))
    whyNot = "the warp-specialised schedule reads K-major weights "
             "(transpose_weights) and rows that are 16-byte aligned";
  if (whyNot.empty() && plan.gemm.config.stages < plan.getMinStages())
    whyNot = llvm::formatv("the schedule needs {0} stages here",
                           plan.getMinStages());
  if (whyNot.empty())
    whyNot = explainSharedMemoryFit(plan.getSharedMemoryBytes(), target);
  if (!whyNot.empty())
    return std::nullopt;
  finishFcProductPlan(plan, target);
  return plan;
}
