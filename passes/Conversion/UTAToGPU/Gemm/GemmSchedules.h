//===- GemmSchedules.h - The GEMM engine's kernel schedules -----*- C++ -*-===//
//
// Each schedule emits the body of one GEMM kernel for a GemmPlan: blocks of
// getNumThreads() threads, one block per output tile (getNumBlocks() in
// all), every thread reaching every barrier. What a schedule shares with
// the others (where a block's tile is, how an operand's batch indices
// broadcast, the guarded hand-off of each result element to the epilogue)
// is here; how a block computes its tile is each schedule's own file.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMSCHEDULES_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMSCHEDULES_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

namespace mlir::uta {

/// Where a block's output tile is.
struct GemmBlockPosition {
  /// Indices of the result's batch dimensions, and of each operand's own
  /// batch dimensions (broadcast).
  SmallVector<Value> batch, lhsBatch, rhsBatch;
  /// The first row (M) and column (N) of the tile.
  Value row, column;
};

/// Index arithmetic at one place of a kernel (unsigned: every index the
/// schedules compute is non-negative).
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value index(int64_t v);
  Value add(Value x, Value y);
  /// x + y; x itself for y = 0.
  Value add(Value x, int64_t y);
  /// x - y, for x >= y; x itself for y = 0.
  Value sub(Value x, int64_t y);
  Value mul(Value x, int64_t y);
  Value div(Value x, int64_t y);
  Value rem(Value x, int64_t y);

protected:
  OpBuilder &b;
  Location loc;
};

/// What each schedule's emitter holds: the builder in the kernel body, the
/// plan, the kernel's operand access and the block's tile.
class GemmScheduleEmitter : protected IndexMath {
public:
  GemmScheduleEmitter(OpBuilder &b, Location loc, const GemmPlan &plan,
                      KernelIO &io)
      : IndexMath(b, loc), plan(plan), c(plan.config), p(plan.problem), io(io) {
  }

protected:
  /// x < bound and x >= bound (unsigned).
  Value isBelow(Value x, int64_t bound);
  Value isAtLeast(Value x, int64_t bound);
  /// Emits `body` in an scf.if on `condition` (roles, guarded waits and
  /// copies of the warp-specialised schedules).
  void emitIf(Value condition, function_ref<void()> body);

  const GemmPlan &plan;
  const GemmConfig &c;
  const GemmProblem &p;
  KernelIO &io;
  GemmBlockPosition block;
};

/// The tile of the current block. Blocks walk the tiles of one batch
/// element in groups of rows (kGroupRows tiles along M per group, N
/// fastest inside a group), so that blocks running together share rows of
/// A and columns of B in L2.
GemmBlockPosition emitGemmBlockPosition(OpBuilder &b, Location loc,
                                        const GemmPlan &plan);

/// The tile of the current block when the batch elements share operand
/// tiles (fc_product's result blades all read the same x and y rows):
/// row tiles outermost, then the batch, then column tiles, so that blocks
/// running together read the same rows of x and y from L2.
GemmBlockPosition emitGemmBlockPositionRowsOuter(OpBuilder &b, Location loc,
                                                 const GemmPlan &plan);

/// Emits `body` where `index` < `bound` (a K step that may not exist):
/// `body` alone, or nothing, when both are constants, else in an scf.if.
void emitIfBelow(OpBuilder &b, Location loc, Value index, Value bound,
                 function_ref<void()> body);

/// Conjoins `index < size` to `inRange` (null while there is no condition
/// yet), unless `tile` divides `size`, so that no index of a tile can pass
/// it (tile 0: always).
void requireBelow(OpBuilder &b, Location loc, Value &inRange, Value index,
                  int64_t size, int64_t tile = 0);

/// Hands the element (row, column) of the tile to `epilogue` with `value`,
/// guarded by the problem's bounds where the tiles do not divide them.
void emitGemmEpilogueElement(OpBuilder &b, Location loc, const GemmPlan &plan,
                             const GemmBlockPosition &block, Value row,
                             Value column, Value value,
                             ElementEpilogue epilogue);

/// Tiled SIMT GEMM: A and B tiles staged in workgroup memory (operands read
/// through `io`, so f16/bf16 widen to f32), a register tile of FMAs per
/// thread.
LogicalResult emitSimtGemm(OpBuilder &b, Location loc, const GemmPlan &plan,
                           KernelIO &io, ElementEpilogue epilogue);

/// Tensor-core GEMM: a multi-stage cp.async pipeline into swizzled shared
/// memory, ldmatrix, mma.sync, the precision of `plan` (3xTF32 splits).
/// Operands must be buffers (io.getOperandBuffer).
LogicalResult emitMmaSyncGemm(OpBuilder &b, Location loc, const GemmPlan &plan,
                              KernelIO &io, ElementEpilogue epilogue);

/// Warpgroup tensor-core GEMM (sm_90a): the cp.async pipeline into
/// 128-byte-swizzled shared memory, wgmma on shared-memory descriptors, the
/// precision of `plan` (3xTF32 from split tiles). Operands must be buffers,
/// both K-contiguous with 16-byte aligned rows (planGemm's condition).
LogicalResult emitWgmmaGemm(OpBuilder &b, Location loc, const GemmPlan &plan,
                            KernelIO &io, ElementEpilogue epilogue);

/// Warp-specialised warpgroup GEMM (sm_90a): a producer warpgroup copies
/// the tiles by TMA into 128-byte-swizzled stages (rounding or splitting
/// f32 tiles), consumer warpgroups multiply them with wgmma, named barriers
/// hand the stages over. Operands must be kernel
/// arguments (their tensor maps), K-contiguous with 16-byte aligned rows.
LogicalResult emitWgmmaTmaGemm(OpBuilder &b, Location loc, const GemmPlan &plan,
                               KernelIO &io, ElementEpilogue epilogue);

/// One term of an fc_product slot: sign * x_lhs * y_rhs.
struct FcProductGemmTerm {
  unsigned lhs, rhs;
  int sign;
};

/// A slot of a result blade's GEMM: the terms on one path that land on the
/// blade, whose signed pair products are the slot's A operand (K = Fin)
/// against the weights w[path].
struct FcProductGemmSlot {
  unsigned path;
  SmallVector<FcProductGemmTerm> terms;
};

/// The operand index of fc_product's optional gate [B, Fin].
constexpr unsigned kFcProductGateOperand = 3;

/// clifford.fc_product as per-blade GEMMs: z_k = sum over the slots of k of
/// (signed pair products) @ w[path].
struct FcProductGemm {
  /// The slots of each result blade (the problem's batch index).
  SmallVector<SmallVector<FcProductGemmSlot>> slotsOfBlade;
  /// The most terms of a slot; slots with fewer have zero tiles.
  int64_t termsPerSlot = 1;
  /// Whether every pair product is scaled by a gate [B, K] (fc_product's
  /// operand 3), which only the warp-specialised schedule reads.
  bool gated = false;
};

/// The constants of one K step of fc_product's GEMM: the path of its
/// weights and, per term, the blades of x and y and the sign (0 for a
/// missing term).
struct FcProductStep {
  Value path;
  SmallVector<Value> lhs, rhs, sign;
};

/// The K steps of `blade`'s GEMM: its slots times `kTiles` tiles of Fin.
Value emitFcProductStepCount(OpBuilder &b, Location loc,
                             const FcProductGemm &fc, Value blade,
                             int64_t kTiles);

/// The tile of the current block of a warp-specialised fc_product. Row
/// tiles are taken in chunks of GemmPlan::longBlocksFirstRows; inside a
/// chunk, the blocks of the blades with the most slots first, whose blocks
/// run longest, so that shorter ones fill the last wave (the GPU hands out
/// blocks in order); inside a group of blades with equal slot counts, row
/// tiles outermost, then blades, then column tiles, so that blocks running
/// together share rows of x and y in L2.
/// `blockIndex` is the block's place in that order: the block id, unless
/// given (a ticket taken at the block's start, see GradeNormExchange.h).
GemmBlockPosition emitFcProductBlockPosition(OpBuilder &b, Location loc,
                                             const GemmPlan &plan,
                                             const FcProductGemm &fc,
                                             Value blockIndex = nullptr);

/// The result blades in the order emitFcProductBlockPosition hands out
/// their blocks within a row tile: most slots first, then by index.
SmallVector<unsigned> getFcProductBladeOrder(const FcProductGemm &fc);

/// The constants of step `step` of `blade`'s GEMM (slot step / kTiles),
/// from constant switches.
FcProductStep emitFcProductStep(OpBuilder &b, Location loc,
                                const FcProductGemm &fc, Value blade,
                                Value step, int64_t kTiles);

/// fc_product on tensor cores: the mma.sync pipeline with x and y tiles per
/// term copied by cp.async and the A fragments formed as their signed
/// products; `plan` is planFcProductGemm's. Operands must be buffers.
LogicalResult emitMmaSyncFcProduct(OpBuilder &b, Location loc,
                                   const GemmPlan &plan,
                                   const FcProductGemm &fc, KernelIO &io,
                                   ElementEpilogue epilogue);

/// fc_product on sm_90a's wgmma: per stage, x and y tiles per term and the
/// weights' [K][N] tile by cp.async; every thread then forms the A tile
/// (signed pair products) and the weights' K-major tile in shared memory,
/// rounded to TF32 (or split into high parts and remainders for 3xTF32),
/// for wgmma. `plan` is planFcProductGemm's. Operands must be buffers.
LogicalResult emitWgmmaFcProduct(OpBuilder &b, Location loc,
                                 const GemmPlan &plan, const FcProductGemm &fc,
                                 KernelIO &io, ElementEpilogue epilogue);

struct FcProductGradeNorm;

/// Whether the warp-specialised fc_product of `plan` stages its result tile
/// in shared memory for its stores (emitStagedWgmmaEpilogue): rows of a
/// multiple of 4 and a staging tile within the stages' memory.
bool canStageWgmmaTmaFcProductEpilogue(const GemmPlan &plan);

/// fc_product warp-specialised on sm_90a (the WgmmaTma schedule): a
/// producer warp copies each term's x and y tiles and each step's K-major
/// weight tile by TMA into two rings of stages; consumer warpgroups form
/// the A operand (signed pair products) in registers, rounded to TF32 or
/// split for 3xTF32, and multiply it with wgmma on the landed weights.
/// `plan` is planFcProductGemm's; `fc`'s slots may hold any number of
/// terms. Operands must be kernel arguments (their tensor maps), with
/// K-major weights (transpose_weights) and 16-byte aligned rows. With
/// `gradeNorm` (explainGradeNormExchange finds no reason not to) the kernel
/// computes the grade RMS norm of the product, its blocks exchanging
/// per-row sums of squares.
LogicalResult
emitWgmmaTmaFcProduct(OpBuilder &b, Location loc, const GemmPlan &plan,
                      const FcProductGemm &fc, KernelIO &io,
                      ElementEpilogue epilogue,
                      const FcProductGradeNorm *gradeNorm = nullptr);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMSCHEDULES_H
