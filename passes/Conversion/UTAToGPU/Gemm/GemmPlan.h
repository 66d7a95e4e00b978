//===- GemmPlan.h - What the GEMM engine runs for one matmul ----*- C++ -*-===//
//
// The GEMM engine computes C[batch, m, n] = sum_k A[batch, m, k] *
// B[batch, k, n] for every matmul-shaped op. A GemmPlan is everything the
// engine decides before emitting a kernel: the problem (GemmProblem), the
// schedule (how a block computes its tile: tiled SIMT, or tensor cores
// through mma.sync), the precision of f32 products, and the tile
// configuration. The configurations live in one table (getGemmConfigTable)
// and one heuristic picks among them (planGemm), so that an autotuner or a
// new schedule (Hopper's TMA + wgmma) replaces a table row or adds a
// schedule, not an engine.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMPLAN_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMPLAN_H

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::uta {

class MatmulOp;

/// The target facts the engine plans with.
struct GemmTarget {
  /// The CUDA compute capability (80 for sm_80); 0 for targets without CUDA
  /// tensor cores (SPIR-V, MSL).
  unsigned sm = 0;
  /// The architecture-specific features of sm_90a (wgmma): the CUDA
  /// target's --sm is "90a".
  bool archSpecific = false;
  /// Whether tensor cores may be used where the target has them.
  bool tensorCores = true;
  /// f32 products in plain TF32 (10-bit mantissas) instead of f32 accuracy.
  bool allowTf32 = false;
  /// The table row to use wherever it applies instead of the heuristic's
  /// choice (benchmarks, tuning); empty: the heuristic decides.
  std::string config;

  /// Streaming multiprocessors of the usual part of the architecture: the
  /// heuristics want at least one block per SM.
  int64_t getNumSMs() const;

  /// Bytes of shared memory one block may use: the opt-in maximum of the
  /// CUDA architecture (kernels take it as dynamic shared memory), or 32 KiB
  /// of workgroup memory elsewhere, what Vulkan implementations commonly
  /// give (lavapipe among them).
  int64_t getMaxSharedBytes() const;
};

/// How a block computes its tile.
enum class GemmSchedule {
  /// Workgroup-memory tiles, a register tile per thread, f32 FMAs. Every
  /// target, every dtype.
  Simt,
  /// cp.async multi-stage pipeline into swizzled shared memory, ldmatrix,
  /// warp-level mma.sync (m16n8k16 for f16/bf16, m16n8k8 for tf32). CUDA
  /// sm_80 and up.
  MmaSync,
  /// The same cp.async pipeline into 128-byte-swizzled shared memory, read
  /// by warpgroup-level wgmma through shared-memory descriptors; each
  /// warpgroup (128 threads) owns 64-row slabs of the tile. sm_90a, both
  /// operands K-contiguous (A always; B when transpose_b) with 16-byte
  /// aligned rows.
  Wgmma,
  /// Warp specialisation on sm_90a: a producer warpgroup copies A and B
  /// tiles by TMA into 128-byte-swizzled stages (and rounds or splits f32
  /// tiles for TF32 and 3xTF32); warpsM consumer warpgroups (setmaxnreg
  /// gives them the producer's registers) multiply them with wgmma; named
  /// barriers hand the stages over. Where one of its rows is named, the
  /// wgmma schedule applies and the operands' tensor maps can be made (at
  /// most 5 dimensions).
  WgmmaTma,
};

/// How the products are formed; accumulation is f32 in every mode.
enum class GemmPrecision {
  /// f32 operands, f32 FMAs (SIMT).
  F32,
  /// f32 operands rounded to TF32 (10-bit mantissa) for the tensor cores.
  Tf32,
  /// f32 accuracy on tensor cores: each operand split into a TF32 high part
  /// and a TF32 remainder, three products (hi*hi + hi*lo + lo*hi).
  Tf32x3,
  /// f16 or bf16 operands, exact products.
  Half,
};

/// The problem of one matmul, in the engine's terms.
struct GemmProblem {
  /// Batch dimensions of the result (NumPy-broadcast of the operands').
  SmallVector<int64_t> batchShape;
  /// The operands' own batch dimensions (a prefix may be missing; size-1
  /// dimensions broadcast).
  SmallVector<int64_t> lhsBatchShape, rhsBatchShape;
  /// A grouped GEMM (one batch dimension, each operand one): batch element
  /// e reads lhs batch lhsBatchOf[e] and rhs batch rhsBatchOf[e], any
  /// pairing (fc_product's path groups) instead of broadcasting. Empty
  /// otherwise.
  SmallVector<int64_t> lhsBatchOf, rhsBatchOf;
  int64_t m = 0, n = 0, k = 0;
  /// A split-K inside one kernel: the operands' K is kRuns runs of `k`, and
  /// each tile is kRuns blocks, the one of run r writing its partial
  /// product to index r of a leading result axis (a later kernel adds them
  /// in order). Only fc_product_weight_gradient's batch_runs make it.
  int64_t kRuns = 1;
  /// A is stored [K, M] (M contiguous) rather than [M, K].
  bool transposeA = false;
  /// B is stored [N, K] (K contiguous) rather than [K, N].
  bool transposeB = false;
  /// The operands' element type (f32, f16 or bf16).
  Type elementType;

  int64_t getBatchCount() const;
  unsigned getElementBytes() const;
};

/// One row of the configuration table.
struct GemmConfig {
  GemmSchedule schedule = GemmSchedule::Simt;
  /// Block tile.
  int64_t tileM = 0, tileN = 0, tileK = 0;
  /// Warps along M and N (mma.sync), or warpgroups along M and N (wgmma:
  /// warpsN is 1, each warpgroup computes tileM / warpsM rows of the whole
  /// tileN; WgmmaTma adds its producer warpgroup); the SIMT schedule uses
  /// threadsM x threadsN threads with a register tile of (tileM / threadsM) x
  /// (tileN / threadsN) outputs each.
  int64_t warpsM = 0, warpsN = 0;
  /// Shared-memory stages of the cp.async pipeline (mma.sync, wgmma); 1 for
  /// SIMT.
  int64_t stages = 1;
  /// Short name for remarks and docs.
  const char *name = "";
  /// Stages of B tiles in a ring of their own beside the `stages` of A
  /// tiles, so that the B tiles of the next steps land while this one's are
  /// multiplied; 0: B tiles share A's stages.
  int64_t bStages = 0;

  int64_t getNumThreads() const;
};

/// One row of a configuration table: the configuration, the element size
/// it is for (0: any) and the precision (nullopt: any).
struct GemmConfigRow {
  GemmConfig config;
  unsigned elementBytes = 0;
  std::optional<GemmPrecision> precision = std::nullopt;
};

/// The configuration table of matmuls: the rows planGemm prefers, in that
/// order, then those it takes by name only. Ops that plan their own GEMMs
/// keep tables of their own.
llvm::ArrayRef<GemmConfigRow> getGemmConfigTable();

struct GemmPlan {
  GemmProblem problem;
  GemmConfig config;
  GemmPrecision precision = GemmPrecision::F32;
  /// Whether the operand rows are 16-byte aligned so that tiles are copied
  /// with 16-byte cp.async; otherwise element by element (mma.sync only).
  bool asyncCopyA = false, asyncCopyB = false;

  /// Sets asyncCopyA and asyncCopyB from the problem: 16-byte cp.async
  /// needs every row of a tile to start 16-byte aligned, the contiguous
  /// extent of each operand a multiple of 16 bytes.
  void setAsyncCopies();

  int64_t getTilesM() const;
  int64_t getTilesN() const;
  /// Blocks in the grid (batch x K runs x M tiles x N tiles), and threads
  /// (blocks x the config's threads), or INT64_MAX where the product does not
  /// fit (overflow-checked: the caller refuses a kernel past 2^31 - 1 threads).
  int64_t getNumBlocks() const;
  int64_t getNumThreads() const;
  /// Bytes of workgroup memory a block of the matmul kernel uses.
  int64_t getSharedMemoryBytes() const;
  /// Bytes of shared memory that hold the A fragments of a step taken from
  /// registers (emitRegisterAHoldWords): plain TF32 on the warp-specialised
  /// schedule, 16 bytes per 64-row slab and K step of 8; else 0.
  int64_t getRegisterAHoldBytes() const;
  /// One line for --remarks: schedule, precision, tile and why.
  std::string describe() const {
    return describe(getSharedMemoryBytes(), describeOperands());
  }
  /// The line of a kernel on this plan's schedule that uses `sharedBytes`
  /// and gets its operands as `operands` says (a clause ending in ", ", or
  /// empty): for ops that build other kernels on the engine's schedules.
  std::string describe(int64_t sharedBytes, llvm::StringRef operands) const;
  /// How the matmul kernel gets its operands, for describe().
  std::string describeOperands() const;
  /// The unit the products run on, as KernelFlops names it: "simt" for the
  /// SIMT schedule, else the tensor cores' precision ("bf16", "f16",
  /// "tf32", "3xtf32").
  llvm::StringRef getFlopsUnit() const;
};

/// The problem of `matmul`.
GemmProblem getGemmProblem(MatmulOp matmul);

/// Picks the schedule, precision and configuration for `problem` on
/// `target`.
GemmPlan planGemm(const GemmProblem &problem, const GemmTarget &target);

/// Whether `plan` (problem and precision set) with `config` gives a block to
/// at least 90% of the SMs of `target` (kMinBusySmPercent): a larger tile on
/// nearly every SM beats a smaller one in several waves (512x512 in 128x128
/// tiles over a batch of 8: 128 blocks on 132 SMs).
bool fillsTheGpu(const GemmPlan &plan, const GemmConfig &config,
                 const GemmTarget &target);

/// The row for `plan` (problem and precision set) under `schedule` on
/// `target`: among the rows of `rows` of that schedule, element size and
/// precision that `fits` accepts, the first that fills the GPU (fillsTheGpu),
/// else the last (smallest) one; the row named by target.config (in `rows`
/// or `namedOnly`) where it applies. Null when no row applies. `fits` says
/// whether a kernel of the plan with that configuration fits the target
/// (its shared memory, its fewest stages).
const GemmConfigRow *chooseGemmConfigRow(
    const GemmPlan &plan, GemmSchedule schedule, const GemmTarget &target,
    llvm::ArrayRef<GemmConfigRow> rows, llvm::ArrayRef<GemmConfigRow> namedOnly,
    llvm::function_ref<bool(const GemmConfig &)> fits);

llvm::StringRef getPrecisionName(GemmPrecision precision);

/// The names of #uta.gemm_plan's schedule and precision ("mma_sync",
/// "3xtf32", ...).
llvm::StringRef getScheduleKeyword(GemmSchedule schedule);
llvm::StringRef getPrecisionKeyword(GemmPrecision precision);

/// `plan`'s configuration and precision as a #uta.gemm_plan.
GemmPlanAttr getGemmPlanAttr(MLIRContext *context, const GemmPlan &plan);

/// Whether `config` has the schedule, tile, warps and stages of `attr`.
bool hasGemmPlanConfig(const GemmConfig &config, GemmPlanAttr attr);

/// Why a kernel of `sharedBytes` bytes of shared memory does not fit
/// `target`; empty where it does.
std::string explainSharedMemoryFit(int64_t sharedBytes,
                                   const GemmTarget &target);

/// Sets `plan`'s configuration and precision (its problem set) to those
/// `attr` asks for, from the row of `rows` (or `namedOnly`) that has
/// `attr`'s configuration, and returns ""; else why no row of them applies
/// (none has that configuration, or it is for another element size or
/// precision, or the precision is not one of the element type's).
std::string setGemmPlanFromAttr(GemmPlan &plan, GemmPlanAttr attr,
                                llvm::ArrayRef<GemmConfigRow> rows);

/// The matmul plan `attr` asks for on `target`; std::nullopt, with why in
/// `whyNot`, where it is no row of the matmul table, or its schedule does
/// not apply to the problem on the target, or its tiles do not fit.
std::optional<GemmPlan> planGemmFromAttr(const GemmProblem &problem,
                                         const GemmTarget &target,
                                         GemmPlanAttr attr,
                                         std::string &whyNot);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMPLAN_H
