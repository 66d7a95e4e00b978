//===- GemmPlan.cpp - The GEMM engine's configuration table and heuristic -===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"

#include "dialects/Interfaces/KernelOpInterface.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::uta;

int64_t GemmProblem::getBatchCount() const {
  int64_t count = 1;
  for (int64_t size : batchShape)
    count *= size;
  return count;
}

unsigned GemmProblem::getElementBytes() const {
  return elementType.getIntOrFloatBitWidth() / 8;
}

int64_t GemmTarget::getMaxSharedBytes() const {
  switch (sm) {
  case 0:
    return 32 * 1024;
  case 80:
    return 163 * 1024;
  case 86:
  case 89:
    return 99 * 1024;
  default:
    return 227 * 1024; // sm_90
  }
}

int64_t GemmConfig::getNumThreads() const {
  switch (schedule) {
  case GemmSchedule::Simt:
    return warpsM * warpsN;
  case GemmSchedule::MmaSync:
    return 32 * warpsM * warpsN;
  case GemmSchedule::Wgmma:
    return 128 * warpsM * warpsN;
  case GemmSchedule::WgmmaTma:
    return 128 * (warpsM * warpsN + 1);
  }
  llvm_unreachable("unknown GEMM schedule");
}

/// The table. The first rows need more than 48 KiB of shared memory
/// (dynamic shared memory on CUDA; where the target has less, the heuristic
/// passes over them): 128x128 tiles of 4 warps of 64x64 in three stages,
/// with K tiles of 128-byte rows (64 for 16 bits, 32 for f32). Measured at
/// 8192^3 bf16 and f16 they are 5% faster than 64-byte rows, and at 4096^3
/// in plain TF32 16% faster (0.68 against 0.79 ms on an H100). The rows
/// after them stay within 48 KiB: the same tile with K tiles of 64-byte
/// rows, and a small one for problems too small to fill the GPU with large
/// tiles. 3xTF32 keeps a second set of accumulators and split fragments,
/// so its large tile is 128x64 (warps of 64x32) with K tiles of 32 in two
/// stages: 11% faster than 128x128x16 in three stages at 4096^3 on an H100;
/// deeper pipelines and 128x128 tiles of 8 warps did not beat it (1.98 to
/// 2.30 against 1.98 ms). SIMT: 16x16 threads with 8x8 outputs each (K
/// tiles of 8: 5.1 against 5.7 ms with 16 at 4096^3 on NVIDIA's Vulkan), or
/// 4x4 for small problems.
static const GemmConfigRow kGemmConfigRows[] = {
    {{GemmSchedule::MmaSync, 128, 128, 64, 2, 2, 3, "mma128x128x64"}, 2},
    {{GemmSchedule::MmaSync, 128, 128, 32, 2, 2, 3, "mma128x128x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::MmaSync, 128, 128, 32, 2, 2, 3, "mma128x128x32"}, 2},
    {{GemmSchedule::MmaSync, 64, 64, 32, 2, 2, 3, "mma64x64x32"}, 2},
    {{GemmSchedule::MmaSync, 128, 64, 32, 2, 2, 2, "mma128x64x32"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::MmaSync, 128, 128, 16, 2, 2, 3, "mma128x128x16"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::MmaSync, 64, 64, 16, 2, 2, 3, "mma64x64x16"}, 4},
    {{GemmSchedule::Simt, 128, 128, 8, 16, 16, 1, "simt128x128x8"}, 0},
    {{GemmSchedule::Simt, 64, 64, 16, 16, 16, 1, "simt64x64x16"}, 0},
};

/// The wgmma rows (sm_90a): K tiles of 128-byte rows (64 for 16 bits, 32 for
/// f32), the width of the 128-byte swizzle that wgmma's descriptors read; a
/// large tile of two warpgroups (64 rows each) and a small one of one
/// warpgroup for problems that would not fill the GPU (for f32 first 128x64
/// in two warpgroups). 3xTF32 keeps a second set of accumulators and the
/// remainders' tiles: 128x128. Four stages measured on the H100: 128x256
/// 16-bit 4-5% faster than three (8192^3: 1.93 against 2.02 ms bf16) and
/// than 128x128 or 256x128 tiles; 3xTF32 128x128 10% faster than three
/// (4096^3: 1.56 against 1.72 ms). Plain TF32 has no default wgmma row: the
/// tensor cores truncate f32 to TF32, and rounding the tiles in shared
/// memory first (for TF32's usual error) costs what wgmma gains (4096^3:
/// 0.668 ms on wgmma128x256x32f32 against mma.sync's 0.683); its wgmma rows
/// are candidates.
static const GemmConfigRow kWgmmaRows[] = {
    {{GemmSchedule::Wgmma, 128, 256, 64, 2, 1, 4, "wgmma128x256x64"}, 2},
    {{GemmSchedule::Wgmma, 64, 128, 64, 1, 1, 4, "wgmma64x128x64"}, 2},
    {{GemmSchedule::Wgmma, 128, 128, 32, 2, 1, 4, "wgmma128x128x32x3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::Wgmma, 128, 64, 32, 2, 1, 3, "wgmma128x64x32f32"}, 4},
    {{GemmSchedule::Wgmma, 64, 128, 32, 1, 1, 4, "wgmma64x128x32f32"}, 4},
};

/// The warp-specialised TMA rows (sm_90a): one producer warpgroup and two
/// consumers of 64 x tileN (the large tiles), or one consumer for small
/// problems; K tiles of 128-byte rows. The heuristic takes the f32 rows
/// where they fill the GPU (getF32TmaRow); at 4096^3 on an H100, 3xTF32
/// 1.188 ms against the cp.async wgmma schedule's 1.563 (the producer
/// warpgroup split the tiles that every thread split there; A split in the
/// consumers' registers and a fourth stage then took it from 1.154 to
/// 1.063 ms on an H200), plain TF32
/// 0.364 ms against mma.sync's 0.684 (A rounded in registers, B read
/// truncated, a group in flight). The 16-bit rows are reachable by name
/// only: as fast as the cp.async wgmma schedule at 8192^3 (bf16 1.559
/// against 1.557 ms), and ptxas takes up to minutes over a large fused
/// epilogue in this kernel when a group of products stays in flight (bias +
/// gelu at 8192 x 4096 bf16: 74 s, against 0.4 s for the cp.async
/// schedule).
static const GemmConfigRow kWgmmaTmaRows[] = {
    {{GemmSchedule::WgmmaTma, 128, 128, 32, 2, 1, 4, "tma128x128x32x3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::WgmmaTma, 128, 256, 32, 2, 1, 4, "tma128x256x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 128, 256, 64, 2, 1, 4, "tma128x256x64"}, 2},
    {{GemmSchedule::WgmmaTma, 64, 128, 64, 1, 1, 4, "tma64x128x64"}, 2},
};

/// The TMA row the heuristic takes for f32 matmuls in `precision` where its
/// tile fills the GPU; null for 16-bit precisions, whose rows are named.
static const GemmConfigRow *getF32TmaRow(GemmPrecision precision) {
  for (const GemmConfigRow &row : kWgmmaTmaRows)
    if (row.precision == precision)
      return &row;
  return nullptr;
}

/// Rows the heuristic does not pick, reachable by name (gemm-config) for
/// benchmarks and tuning: larger tiles and deeper pipelines, which need
/// more than 48 KiB of (dynamic) shared memory.
static const GemmConfigRow kCandidateRows[] = {
    {{GemmSchedule::MmaSync, 128, 128, 32, 2, 2, 4, "mma128x128x32s4"}, 2},
    {{GemmSchedule::MmaSync, 128, 256, 32, 2, 4, 3, "mma128x256x32"}, 2},
    {{GemmSchedule::MmaSync, 128, 128, 32, 2, 2, 4, "mma128x128x32f32s4"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::MmaSync, 128, 256, 16, 2, 4, 4, "mma128x256x16"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::MmaSync, 128, 64, 32, 2, 2, 3, "mma128x64x32s3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::MmaSync, 128, 64, 32, 2, 2, 4, "mma128x64x32s4"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::MmaSync, 128, 128, 32, 2, 4, 3, "mma128x128x32x3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::MmaSync, 128, 128, 16, 2, 4, 4, "mma128x128x16x3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::MmaSync, 128, 128, 16, 2, 4, 4, "mma128x128x16w8"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::Wgmma, 128, 128, 64, 2, 1, 4, "wgmma128x128x64"}, 2},
    {{GemmSchedule::Wgmma, 128, 256, 64, 2, 1, 3, "wgmma128x256x64s3"}, 2},
    {{GemmSchedule::Wgmma, 256, 128, 64, 4, 1, 3, "wgmma256x128x64"}, 2},
    {{GemmSchedule::Wgmma, 128, 128, 32, 2, 1, 3, "wgmma128x128x32x3s3"},
     4,
     GemmPrecision::Tf32x3},
    {{GemmSchedule::Wgmma, 128, 256, 32, 2, 1, 3, "wgmma128x256x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::Wgmma, 256, 128, 32, 4, 1, 3, "wgmma256x128x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::Wgmma, 128, 128, 32, 2, 1, 4, "wgmma128x128x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 128, 256, 64, 2, 1, 3, "tma128x256x64s3"}, 2},
    {{GemmSchedule::WgmmaTma, 256, 128, 64, 4, 1, 4, "tma256x128x64"}, 2},
    {{GemmSchedule::WgmmaTma, 128, 128, 64, 2, 1, 6, "tma128x128x64s6"}, 2},
    {{GemmSchedule::WgmmaTma, 128, 128, 32, 2, 1, 4, "tma128x128x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 64, 128, 32, 1, 1, 4, "tma64x128x32f32"}, 4},
    {{GemmSchedule::WgmmaTma, 256, 128, 32, 2, 1, 4, "tma256x128x32f32"},
     4,
     GemmPrecision::Tf32},
    {{GemmSchedule::WgmmaTma, 192, 128, 32, 3, 1, 5, "tma192x128x32f32"},
     4,
     GemmPrecision::Tf32},
};

ArrayRef<GemmConfigRow> mlir::uta::getGemmConfigTable() {
  static const SmallVector<GemmConfigRow> table = [] {
    SmallVector<GemmConfigRow> rows;
    for (ArrayRef<GemmConfigRow> part :
         {ArrayRef(kGemmConfigRows), ArrayRef(kWgmmaRows),
          ArrayRef(kWgmmaTmaRows), ArrayRef(kCandidateRows)})
      llvm::append_range(rows, part);
    return rows;
  }();
  return table;
}

int64_t GemmPlan::getTilesM() const {
  return llvm::divideCeil(problem.m, config.tileM);
}

int64_t GemmPlan::getTilesN() const {
  return llvm::divideCeil(problem.n, config.tileN);
}

int64_t GemmPlan::getNumBlocks() const {
  return getElementCount(
             {problem.getBatchCount(), problem.kRuns, getTilesM(), getTilesN()})
      .value_or(std::numeric_limits<int64_t>::max());
}

int64_t GemmPlan::getNumThreads() const {
  return getElementCount({problem.getBatchCount(), problem.kRuns, getTilesM(),
                          getTilesN(), config.getNumThreads()})
      .value_or(std::numeric_limits<int64_t>::max());
}

int64_t GemmPlan::getRegisterAHoldBytes() const {
  const GemmConfig &c = config;
  if (c.schedule != GemmSchedule::WgmmaTma || precision != GemmPrecision::Tf32)
    return 0;
  return 16 * (c.tileM / c.warpsM / 64) * (c.tileK / 8);
}

int64_t GemmPlan::getSharedMemoryBytes() const {
  const GemmConfig &c = config;
  if (c.schedule == GemmSchedule::Simt)
    return (c.tileM + c.tileN) * c.tileK * 4;
  bool split = precision == GemmPrecision::Tf32x3;
  int64_t aBytes = c.tileM * c.tileK * problem.getElementBytes();
  int64_t bBytes = c.tileN * c.tileK * problem.getElementBytes();
  int64_t bytes = c.stages * (aBytes + bBytes);
  // 3xTF32's remainders of each stage's B tile (A is split in registers),
  // and the mbarrier of each stage's boxes after the tiles.
  if (c.schedule == GemmSchedule::WgmmaTma) {
    int64_t remainderBytes = split ? c.stages * bBytes : 0;
    return llvm::alignTo(bytes + remainderBytes + getRegisterAHoldBytes(),
                         128) +
           c.stages * 8;
  }
  // wgmma's 3xTF32 remainders of A and B.
  if (c.schedule == GemmSchedule::Wgmma && split)
    bytes += aBytes + bBytes;
  return bytes;
}

StringRef mlir::uta::getPrecisionName(GemmPrecision precision) {
  switch (precision) {
  case GemmPrecision::F32:
    return "f32";
  case GemmPrecision::Tf32:
    return "tf32";
  case GemmPrecision::Tf32x3:
    return "3xTF32 (f32 accuracy)";
  case GemmPrecision::Half:
    return "exact products";
  }
  llvm_unreachable("unknown precision");
}

int64_t GemmTarget::getNumSMs() const {
  switch (sm) {
  case 80:
    return 108; // A100
  case 86:
    return 84; // RTX 3090
  case 89:
    return 128; // RTX 4090, L40
  default:
    return 132; // H100 SXM
  }
}

StringRef GemmPlan::getFlopsUnit() const {
  if (config.schedule == GemmSchedule::Simt)
    return "simt";
  switch (precision) {
  case GemmPrecision::F32:
    return "simt";
  case GemmPrecision::Tf32:
    return "tf32";
  case GemmPrecision::Tf32x3:
    return "3xtf32";
  case GemmPrecision::Half:
    return problem.elementType.isBF16() ? "bf16" : "f16";
  }
  llvm_unreachable("unknown precision");
}

std::string GemmPlan::describeOperands() const {
  switch (config.schedule) {
  case GemmSchedule::Simt:
    return "";
  case GemmSchedule::MmaSync:
    return std::string("A ") + (problem.transposeA ? "[K][M] " : "") +
           (asyncCopyA ? "cp.async 16 B" : "copied by element") + ", B " +
           (asyncCopyB ? "cp.async 16 B" : "copied by element") + ", ";
  case GemmSchedule::Wgmma:
    return "A and B cp.async 16 B, ";
  case GemmSchedule::WgmmaTma:
    return precision == GemmPrecision::Tf32
               ? "A and B by TMA, A rounded in registers, "
               : "A and B by TMA, ";
  }
  llvm_unreachable("unknown GEMM schedule");
}

std::string GemmPlan::describe(int64_t sharedBytes, StringRef operands) const {
  const GemmConfig &c = config;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0}x{1}x{2} {3}: ", problem.m, problem.n, problem.k,
                      problem.elementType);
  if (c.schedule == GemmSchedule::Wgmma) {
    os << llvm::formatv("wgmma, {0}, tile {1} ({2}x{3}x{4}, {5} warpgroup{6} "
                        "of {7}x{8}, {9} stages, {10} B shared), ",
                        getPrecisionName(precision), c.name, c.tileM, c.tileN,
                        c.tileK, c.warpsM, c.warpsM > 1 ? "s" : "",
                        c.tileM / c.warpsM, c.tileN, c.stages, sharedBytes);
  } else if (c.schedule == GemmSchedule::WgmmaTma) {
    os << llvm::formatv("wgmma, warp-specialised, {0}, tile {1} ({2}x{3}x{4}, "
                        "a producer warpgroup and {5} consumer{6} of {7}x{8}, "
                        "{9} stages, {10} B shared), ",
                        getPrecisionName(precision), c.name, c.tileM, c.tileN,
                        c.tileK, c.warpsM, c.warpsM > 1 ? "s" : "",
                        c.tileM / c.warpsM, c.tileN, c.stages, sharedBytes);
  } else if (c.schedule == GemmSchedule::MmaSync) {
    os << llvm::formatv("mma.sync, {0}, tile {1} ({2}x{3}x{4}, {5} warps of "
                        "{6}x{7}, {8} stages, {9} B shared), ",
                        getPrecisionName(precision), c.name, c.tileM, c.tileN,
                        c.tileK, c.warpsM * c.warpsN, c.tileM / c.warpsM,
                        c.tileN / c.warpsN, c.stages, sharedBytes);
  } else {
    os << llvm::formatv("tiled SIMT, {0}, tile {1} ({2}x{3}x{4}, {5} threads "
                        "of {6}x{7} outputs), ",
                        getPrecisionName(precision), c.name, c.tileM, c.tileN,
                        c.tileK, c.getNumThreads(), c.tileM / c.warpsM,
                        c.tileN / c.warpsN);
  }
  os << operands << llvm::formatv("{0} blocks", getNumBlocks());
  return text;
}

GemmProblem mlir::uta::getGemmProblem(MatmulOp matmul) {
  auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  auto result = cast<RankedTensorType>(matmul.getResult().getType());
  GemmProblem problem;
  problem.batchShape.assign(result.getShape().drop_back(2).begin(),
                            result.getShape().drop_back(2).end());
  problem.lhsBatchShape.assign(lhs.getShape().drop_back(2).begin(),
                               lhs.getShape().drop_back(2).end());
  problem.rhsBatchShape.assign(rhs.getShape().drop_back(2).begin(),
                               rhs.getShape().drop_back(2).end());
  problem.m = result.getShape()[result.getRank() - 2];
  problem.n = result.getShape().back();
  problem.k = lhs.getShape()[lhs.getRank() - (matmul.getTransposeA() ? 2 : 1)];
  problem.transposeA = matmul.getTransposeA();
  problem.transposeB = matmul.getTransposeB();
  problem.elementType = lhs.getElementType();
  return problem;
}

/// The least share of the SMs, in percent, that a grid of one wave must
/// keep busy to count as filling the GPU (fillsTheGpu).
static constexpr int64_t kMinBusySmPercent = 90;

bool mlir::uta::fillsTheGpu(const GemmPlan &plan, const GemmConfig &config,
                            const GemmTarget &target) {
  GemmPlan candidate = plan;
  candidate.config = config;
  return candidate.getNumBlocks() * 100 >=
         target.getNumSMs() * kMinBusySmPercent;
}

const GemmConfigRow *mlir::uta::chooseGemmConfigRow(
    const GemmPlan &plan, GemmSchedule schedule, const GemmTarget &target,
    ArrayRef<GemmConfigRow> rows, ArrayRef<GemmConfigRow> namedOnly,
    function_ref<bool(const GemmConfig &)> fits) {
  auto applies = [&](const GemmConfigRow &row) {
    return row.config.schedule == schedule &&
           (!row.elementBytes ||
            row.elementBytes == plan.problem.getElementBytes()) &&
           (!row.precision || *row.precision == plan.precision) &&
           fits(row.config);
  };
  auto fillsGpu = [&](const GemmConfigRow &row) {
    return fillsTheGpu(plan, row.config, target);
  };
  const GemmConfigRow *chosen = nullptr;
  for (const GemmConfigRow &row : rows)
    if (applies(row) && (!chosen || !fillsGpu(*chosen)))
      chosen = &row;
  for (const GemmConfigRow &row :
       llvm::concat<const GemmConfigRow>(rows, namedOnly))
    if (applies(row) && target.config == row.config.name)
      chosen = &row;
  return chosen;
}

/// The matmul row of `rows` (see chooseGemmConfigRow): those whose kernel
/// fits the target's shared memory.
static const GemmConfigRow *
chooseRow(const GemmPlan &plan, GemmSchedule schedule, const GemmTarget &target,
          ArrayRef<GemmConfigRow> rows, ArrayRef<GemmConfigRow> namedOnly) {
  return chooseGemmConfigRow(
      plan, schedule, target, rows, namedOnly, [&](const GemmConfig &config) {
        GemmPlan candidate = plan;
        candidate.config = config;
        return candidate.getSharedMemoryBytes() <= target.getMaxSharedBytes();
      });
}

/// The most dimensions a TMA tensor map describes.
static constexpr size_t kMaxTensorMapRank = 5;

void GemmPlan::setAsyncCopies() {
  unsigned bytes = problem.getElementBytes();
  asyncCopyA = (problem.transposeA ? problem.m : problem.k) * bytes % 16 == 0;
  asyncCopyB = (problem.transposeB ? problem.k : problem.n) * bytes % 16 == 0;
}

/// Why `schedule` cannot run the matmul of `plan` (problem and async
/// copies set) on `target`; empty where it can.
static std::string whyScheduleDoesNotApply(const GemmPlan &plan,
                                           GemmSchedule schedule,
                                           const GemmTarget &target) {
  const GemmProblem &problem = plan.problem;
  if (schedule == GemmSchedule::Simt)
    return "";
  if (target.sm < 80 || !target.tensorCores)
    return "the target has no CUDA tensor cores";
  if (schedule == GemmSchedule::MmaSync)
    return "";
  if (!target.archSpecific || target.sm != 90)
    return "wgmma needs sm_90a";
  if (problem.transposeA)
    return "wgmma reads A K-contiguous (not transpose_a)";
  if (!problem.transposeB)
    return "wgmma reads B K-contiguous (transpose_b)";
  if (!plan.asyncCopyA || !plan.asyncCopyB)
    return "wgmma needs operand rows that are 16-byte aligned";
  if (schedule == GemmSchedule::Wgmma)
    return "";
  if (problem.lhsBatchShape.size() + 2 > kMaxTensorMapRank ||
      problem.rhsBatchShape.size() + 2 > kMaxTensorMapRank)
    return "a tensor map describes at most 5 dimensions";
  return "";
}

GemmPlan mlir::uta::planGemm(const GemmProblem &problem,
                             const GemmTarget &target) {
  GemmPlan plan;
  plan.problem = problem;
  plan.setAsyncCopies();
  bool half = problem.getElementBytes() == 2;
  GemmSchedule schedule = target.sm >= 80 && target.tensorCores
                              ? GemmSchedule::MmaSync
                              : GemmSchedule::Simt;
  if (half)
    plan.precision = GemmPrecision::Half;
  else if (schedule == GemmSchedule::Simt)
    plan.precision = GemmPrecision::F32;
  else
    plan.precision =
        target.allowTf32 ? GemmPrecision::Tf32 : GemmPrecision::Tf32x3;
  // wgmma reads both operands K-contiguous from 128-byte-swizzled tiles
  // filled by 16-byte copies; other shapes keep mma.sync, and so does plain
  // TF32 unless a wgmma row is named (see kWgmmaRows). The warp-specialised
  // TMA schedule needs the operands' tensor maps; it takes f32 (3xTF32 and
  // plain TF32) where its large tile fills the GPU, and named rows (see
  // kWgmmaTmaRows).
  bool wgmmaApplies = schedule == GemmSchedule::MmaSync &&
                      target.archSpecific && target.sm == 90 &&
                      !problem.transposeA && problem.transposeB &&
                      plan.asyncCopyA && plan.asyncCopyB;
  bool tmaApplies = wgmmaApplies &&
                    problem.lhsBatchShape.size() + 2 <= kMaxTensorMapRank &&
                    problem.rhsBatchShape.size() + 2 <= kMaxTensorMapRank;
  if (wgmmaApplies && plan.precision != GemmPrecision::Tf32)
    schedule = GemmSchedule::Wgmma;
  const GemmConfigRow *f32TmaRow = getF32TmaRow(plan.precision);
  if (tmaApplies && f32TmaRow && fillsTheGpu(plan, f32TmaRow->config, target))
    schedule = GemmSchedule::WgmmaTma;
  auto rowsOf = [](GemmSchedule schedule) -> ArrayRef<GemmConfigRow> {
    if (schedule == GemmSchedule::Wgmma)
      return kWgmmaRows;
    if (schedule == GemmSchedule::WgmmaTma)
      return kWgmmaTmaRows;
    return kGemmConfigRows;
  };
  // A named row of another applicable schedule wins where it fits.
  SmallVector<GemmSchedule, 2> named;
  if (wgmmaApplies)
    named.push_back(GemmSchedule::Wgmma);
  if (tmaApplies)
    named.push_back(GemmSchedule::WgmmaTma);
  for (GemmSchedule other : named) {
    const GemmConfigRow *row =
        chooseRow(plan, other, target, rowsOf(other), kCandidateRows);
    if (row && target.config == row->config.name)
      schedule = other;
  }
  const GemmConfigRow *chosen =
      chooseRow(plan, schedule, target, rowsOf(schedule), kCandidateRows);
  assert(chosen && "the table has a row for every schedule and dtype");
  plan.config = chosen->config;
  return plan;
}

StringRef mlir::uta::getScheduleKeyword(GemmSchedule schedule) {
  switch (schedule) {
  case GemmSchedule::Simt:
    return "simt";
  case GemmSchedule::MmaSync:
    return "mma_sync";
  case GemmSchedule::Wgmma:
    return "wgmma";
  case GemmSchedule::WgmmaTma:
    return "wgmma_tma";
  }
  llvm_unreachable("unknown GEMM schedule");
}

StringRef mlir::uta::getPrecisionKeyword(GemmPrecision precision) {
  switch (precision) {
  case GemmPrecision::F32:
    return "f32";
  case GemmPrecision::Tf32:
    return "tf32";
  case GemmPrecision::Tf32x3:
    return "3xtf32";
  case GemmPrecision::Half:
    return "half";
  }
  llvm_unreachable("unknown precision");
}

GemmPlanAttr mlir::uta::getGemmPlanAttr(MLIRContext *context,
                                        const GemmPlan &plan) {
  const GemmConfig &c = plan.config;
  return GemmPlanAttr::get(context, getScheduleKeyword(c.schedule),
                           {c.tileM, c.tileN, c.tileK}, {c.warpsM, c.warpsN},
                           c.stages, getPrecisionKeyword(plan.precision),
                           c.bStages);
}

bool mlir::uta::hasGemmPlanConfig(const GemmConfig &config, GemmPlanAttr attr) {
  const GemmConfig &c = config;
  return getScheduleKeyword(c.schedule) == attr.getSchedule() &&
         ArrayRef<int64_t>{c.tileM, c.tileN, c.tileK} == attr.getTile() &&
         ArrayRef<int64_t>{c.warpsM, c.warpsN} == attr.getWarps() &&
         c.stages == attr.getStages() && c.bStages == attr.getBStages();
}

std::string mlir::uta::explainSharedMemoryFit(int64_t sharedBytes,
                                              const GemmTarget &target) {
  if (sharedBytes <= target.getMaxSharedBytes())
    return "";
  return llvm::formatv("its {0} bytes of shared memory are more than the "
                       "target's {1}",
                       sharedBytes, target.getMaxSharedBytes())
      .str();
}

std::string mlir::uta::setGemmPlanFromAttr(GemmPlan &plan, GemmPlanAttr attr,
                                           ArrayRef<GemmConfigRow> rows) {
  const GemmProblem &problem = plan.problem;
  // What the operands allow: exact products of 16-bit operands, f32 FMAs on
  // the SIMT cores, TF32 or 3xTF32 on the tensor cores.
  bool half = problem.getElementBytes() == 2;
  bool simt = attr.getSchedule() == getScheduleKeyword(GemmSchedule::Simt);
  SmallVector<GemmPrecision, 2> allowed;
  if (half)
    allowed = {GemmPrecision::Half};
  else if (simt)
    allowed = {GemmPrecision::F32};
  else
    allowed = {GemmPrecision::Tf32, GemmPrecision::Tf32x3};
  const GemmPrecision *precision =
      llvm::find_if(allowed, [&](GemmPrecision allowedPrecision) {
        return getPrecisionKeyword(allowedPrecision) == attr.getPrecision();
      });
  if (precision == allowed.end()) {
    SmallVector<StringRef, 2> names =
        llvm::to_vector(llvm::map_range(allowed, getPrecisionKeyword));
    return llvm::formatv("{0} operands on the {1} schedule take precision {2}",
                         problem.elementType, attr.getSchedule(),
                         llvm::join(names, " or "))
        .str();
  }
  const GemmConfigRow *found = nullptr;
  for (const GemmConfigRow &row : rows) {
    if (!hasGemmPlanConfig(row.config, attr))
      continue;
    found = &row;
    if ((!row.elementBytes || row.elementBytes == problem.getElementBytes()) &&
        (!row.precision || *row.precision == *precision))
      break;
  }
  if (!found)
    return "no row of the engine's table has this schedule, tile, warps and "
           "stages";
  if ((found->elementBytes &&
       found->elementBytes != problem.getElementBytes()) ||
      (found->precision && *found->precision != *precision))
    return llvm::formatv("its row {0} is for other operands or another "
                         "precision",
                         found->config.name)
        .str();
  plan.config = found->config;
  plan.precision = *precision;
  return "";
}

std::optional<GemmPlan> mlir::uta::planGemmFromAttr(const GemmProblem &problem,
                                                    const GemmTarget &target,
                                                    GemmPlanAttr attr,
                                                    std::string &whyNot) {
  GemmPlan plan;
  plan.problem = problem;
  plan.setAsyncCopies();
  whyNot = setGemmPlanFromAttr(plan, attr, getGemmConfigTable());
  if (whyNot.empty())
    whyNot = whyScheduleDoesNotApply(plan, plan.config.schedule, target);
  if (whyNot.empty())
    whyNot = explainSharedMemoryFit(plan.getSharedMemoryBytes(), target);
  if (!whyNot.empty())
    return std::nullopt;
  return plan;
}
