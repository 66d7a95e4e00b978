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
/// tiles (all read the same rows of A): row tiles outermost, then the
/// batch, then column tiles, so that blocks running together read the same
/// rows of A from L2.
GemmBlockPosition emitGemmBlockPositionRowsOuter(OpBuilder &b, Location loc,
                                                 const GemmPlan &plan);

/// The position of the tile (tileRow, tileColumn) of batch element
/// `batchLinear` (a linear index over the result's batch dimensions), for
/// block orders of other kernels on the engine's schedules.
GemmBlockPosition makeGemmBlockPosition(OpBuilder &b, Location loc,
                                        const GemmPlan &plan, Value batchLinear,
                                        Value tileRow, Value tileColumn);

/// A switch over `key` whose case `k` yields `values[k]` (index constants,
/// or f32 where `isFloat`), and zeros for any other key: per-block or
/// per-step constants of a kernel.
SmallVector<Value> emitConstantTable(OpBuilder &b, Location loc, Value key,
                                     ArrayRef<SmallVector<double>> values,
                                     ArrayRef<bool> isFloat);

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

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_GEMMSCHEDULES_H
