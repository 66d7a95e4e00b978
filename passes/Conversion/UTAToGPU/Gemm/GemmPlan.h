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

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
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
  /// most 5 dimensions). fc_product on this schedule stages one term's x
  /// and y tiles per stage, the weights in weightStages stages of their
  /// own, and forms A in the consumers' registers.
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
  int64_t m = 0, n = 0, k = 0;
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
  /// fc_product on the warp-specialised schedule: stages of weight tiles,
  /// beside the `stages` of x and y tiles (one term each), so that the
  /// weights of the next steps land while this one's are multiplied.
  int64_t weightStages = 0;

  int64_t getNumThreads() const;
};

/// The configuration table, in the order planGemm prefers its rows.
llvm::ArrayRef<GemmConfig> getGemmConfigTable();

struct GemmPlan {
  GemmProblem problem;
  GemmConfig config;
  GemmPrecision precision = GemmPrecision::F32;
  /// Whether the operand rows are 16-byte aligned so that tiles are copied
  /// with 16-byte cp.async; otherwise element by element (mma.sync only).
  bool asyncCopyA = false, asyncCopyB = false;
  /// Shared-memory tiles of tileM x tileK per stage that form the A operand:
  /// 1 for a matmul; for clifford.fc_product, an x and a y tile per term of
  /// a slot (the A tile is their signed pair products, formed in registers).
  int64_t aTilesPerStage = 1;
  /// wgmma's fc_product: the x and y tiles are copied by the tensor memory
  /// accelerator (a tensor map per operand, one box per tile, completed on
  /// a per-stage mbarrier) instead of by every thread's cp.async. Needs
  /// rows of x and y that are 16-byte aligned (the maps' strides).
  bool tmaRows = false;
  /// The warp-specialised fc_product: row tiles per chunk of the order
  /// that hands out the blocks of the blades with the most slots (the
  /// longest) first, so that shorter ones fill the last wave
  /// (emitFcProductBlockPosition); 0 for the other schedules. Each chunk's
  /// short blocks read again the rows of x and y its long blocks read.
  int64_t longBlocksFirstRows = 0;
  /// The warp-specialised fc_product: a block's steps run K tile by K tile
  /// (every slot of a K tile, then the next K tile) instead of slot by
  /// slot, so that the blocks of a row tile, whose blades read the same x
  /// and y tiles, read each K tile at about the same time, and it stays
  /// in L2 between them. Set for plain TF32.
  bool kTilesOuter = false;
  /// The warp-specialised fc_product: blocks run in clusters of this many,
  /// 2 with kTilesOuter where the column tiles are even in number: the GPU
  /// then runs neighbours in emitFcProductBlockPosition's order, the column
  /// tiles of one row tile and blade, which read the same x and y tiles, at
  /// the same time on one GPC. (With a grade norm the blocks are placed by
  /// ticket: a cluster's two usually take neighbouring places.)
  int64_t clusterBlocks = 1;

  int64_t getTilesM() const;
  int64_t getTilesN() const;
  /// Blocks in the grid (batch x M tiles x N tiles), and threads (blocks x the
  /// config's threads), or INT64_MAX where the product does not fit
  /// (overflow-checked: the caller refuses a kernel past 2^31 - 1 threads).
  int64_t getNumBlocks() const;
  int64_t getNumThreads() const;
  /// wgmma's fc_product: the sets of formed tiles (A, and the weights made
  /// K-major where they are stored [K][N]), two in plain TF32, which forms
  /// a step while the last one is multiplied, one otherwise.
  int64_t getFormedTileSets() const;
  /// The fewest stages the schedule can run: 3 for wgmma's fc_product in
  /// plain TF32 with K-major weights (a stage's weights are read by the
  /// step in flight while the next step is formed from another), else 1.
  int64_t getMinStages() const;
  /// Bytes of workgroup memory a block uses.
  int64_t getSharedMemoryBytes() const;
  /// One line for --remarks: schedule, precision, tile and why.
  std::string describe() const;
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

/// The mma.sync plan of clifford.fc_product's per-blade GEMMs: `problem` is
/// [result blades] x B x Fout over K = Fin per slot, f32, with
/// `termsPerSlot` x and y tiles per stage; std::nullopt where tensor cores
/// do not apply (no CUDA tensor cores, or the tiles do not fit the
/// target's shared memory): the op keeps its SIMT kernel.
std::optional<GemmPlan> planFcProductGemm(const GemmProblem &problem,
                                          const GemmTarget &target,
                                          int64_t termsPerSlot);

llvm::StringRef getPrecisionName(GemmPrecision precision);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMPLAN_H
