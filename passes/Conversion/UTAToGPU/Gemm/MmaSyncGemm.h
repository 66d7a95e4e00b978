//===- MmaSyncGemm.h - The mma.sync mainloop of the GEMM engine -*- C++ -*-===//
//
// The mma.sync schedule (MmaSyncGemm.cpp) as parts that other kernels on
// the engine compose: the operands' staged tiles and their copies, the
// pipelined K loop around a copy step and a compute step, the A fragment
// hook, and the epilogue that hands each accumulator element on. The
// matmul is emit(); a kernel that forms its A operand from tiles of its own
// derives from the emitter and sets `aFragment`.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_MMASYNCGEMM_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_MMASYNCGEMM_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/SharedTiles.h"

#include <functional>

namespace mlir::uta {

class MmaSyncGemmEmitter : protected GemmScheduleEmitter {
public:
  using GemmScheduleEmitter::GemmScheduleEmitter;

  /// The matmul: A and B tiles copied each step, A fragments from A's tile.
  LogicalResult emit(ElementEpilogue epilogue);

protected:
  Value swizzleColumn(const StagedOperand &operand, Value row, Value column) {
    return emitSwizzledColumn(b, loc, operand, row, column);
  }
  /// Issues the copies of K tile `step` into stage `stage`.
  void copyTile(StagedOperand &operand, Value step, Value stage);
  /// Issues the copies of the tile at (rowOrigin, columnOrigin) of
  /// `operand` into stage `stage`; zeros where `enabled` (if given) is
  /// false.
  void copyTileAt(StagedOperand &operand, Value rowOrigin, Value columnOrigin,
                  Value stage, Value enabled) {
    emitTileCopy(b, loc, operand, threadId, c.getNumThreads(), rowOrigin,
                 columnOrigin, stage, enabled);
  }
  void copyTiles(Value step, Value stage) {
    copyTile(a, step, stage);
    copyTile(bOperand, step, stage);
  }
  /// Computes one stage into the accumulators.
  void computeStage(Value stage, SmallVectorImpl<Value> &acc);
  /// The K loop over `steps` K tiles (a constant, or per block): the
  /// pipeline around `copyStep(step, stage)` and `computeStep(step, stage,
  /// accumulators)`; returns the accumulators. A kernel that folds the
  /// accumulators into sums of its own inside the loop asks for
  /// `extraAccumulators` more (zeros, after the tile's, returned with them)
  /// and gets them all in `afterStep(step, accumulators)`, once the step's
  /// products are added.
  SmallVector<Value> emitMainLoop(
      Value steps, function_ref<void(Value, Value)> copyStep,
      function_ref<void(Value, Value, SmallVectorImpl<Value> &)> computeStep,
      int64_t extraAccumulators = 0,
      function_ref<void(Value, SmallVectorImpl<Value> &)> afterStep = nullptr);
  /// The accumulators of one tile: zeros.
  SmallVector<Value> getZeroAccumulators();
  /// Calls `element(tile, i, j, row, column)` for element (i, j) of each of
  /// the thread's m16n8 accumulators (`tile` their index), with its row and
  /// column in the block's tile.
  void forEachAccumulatorElement(
      function_ref<void(int64_t, int64_t, int64_t, Value, Value)> element);
  /// Hands every accumulator element to the epilogue.
  void emitEpilogue(ValueRange accumulators, ElementEpilogue epilogue);
  void emitThreadPosition();
  void initOperands();
  /// initOperands, the stages of A and B in shared memory, and A fragments
  /// from A's tile: the matmul's operands, for kernels that stage them.
  void initStagedOperands();
  /// A fragments of m16 tile `mi` at K step `ks` of `operand` (A, or
  /// another tile laid out like A's).
  Value loadA(const StagedOperand &operand, Value stage, int64_t mi,
              int64_t ks);
  /// A fragments of m16 tile `mi` at K step `ks` of a tile stored
  /// transposed, [K][M] (M contiguous): ldmatrix.trans for 16-bit elements,
  /// plain shared loads for 32-bit ones, which ldmatrix cannot transpose.
  Value loadATransposed(const StagedOperand &operand, Value stage, int64_t mi,
                        int64_t ks);
  /// How computeStage gets A fragments: from A's tile, or formed by the
  /// kernel from tiles of its own (loadA).
  std::function<Value(Value, int64_t, int64_t)> aFragment;
  /// B fragments of n8 tiles `nj` and `nj + 1` at K step `ks`.
  std::pair<Value, Value> loadBPair(Value stage, int64_t nj, int64_t ks);
  /// The fragment rounded to TF32 (round to nearest, ties away from zero).
  Value roundToTf32(Value fragment);
  Value mma(Value a, Value bFragment, Value acc);
  /// mma.sync m16n8k16 on bf16, which nvgpu.mma.sync does not lower: NVVM's
  /// own op on the fragments' 32-bit registers.
  Value mmaBf16(Value a, Value bFragment, Value acc);
  Value rowsOf(Value vector, int64_t first, int64_t count);

  Value threadId, lane, warpRow, warpColumn;
  StagedOperand a, bOperand;
};

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_MMASYNCGEMM_H
