//===- SharedTiles.h - Operand tiles staged in shared memory ----*- C++ -*-===//
//
// The tensor-core schedules (mma.sync, wgmma) stage K tiles of their
// operands in multi-buffered shared memory, filled by cp.async. What they
// share is here: the tile's description, the XOR swizzle of its 16-byte
// chunks, and the copy of one tile by every thread of a block, with zeros
// past the operand's extents.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_SHAREDTILES_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_SHAREDTILES_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::uta {

/// chunk' = chunk ^ (((row >> rowShift) & rowMask) << xorShift), on 16-byte
/// chunks of a shared-memory row.
struct Swizzle {
  int64_t rowShift, rowMask, xorShift;
};

/// The swizzle of tiles with rows of `rowBytes`. Rows of 64 bytes repeat
/// every two rows in the 128-byte bank window: by row pairs. Wider rows: by
/// row, for the eight rows of an ldmatrix (for 128-byte rows this is the
/// 128-byte swizzle of wgmma's shared-memory descriptors), or by twice the
/// row for the 32-bit loads of four rows and eight columns (an f32 [k][n]
/// B of mma.sync).
Swizzle getRowSwizzle(int64_t rowBytes, bool readByLdmatrix);

/// One operand's shared-memory tiles.
struct StagedOperand {
  /// memref<stages x rows x columns x T, workgroup>.
  Value buffer;
  /// Rows and columns of one stage's tile; columns are contiguous.
  int64_t rows = 0, columns = 0;
  Swizzle swizzle{0, 0, 0};
  /// The global buffer and the operand's batch indices.
  Value global;
  SmallVector<Value> batch;
  /// The extents of the operand's two matrix axes (rows, then the
  /// contiguous one), for bounds.
  int64_t globalRows = 0, globalColumns = 0;
  /// 16-byte cp.async (rows 16-byte aligned) or element copies.
  bool asyncCopy = false;
};

/// The swizzled column of element `column` of `row` in `operand`'s tile.
Value emitSwizzledColumn(OpBuilder &b, Location loc,
                         const StagedOperand &operand, Value row, Value column);

/// Issues the copies of the tile of `operand` at (rowOrigin, columnOrigin)
/// into stage `stage`, spread over the block's `numThreads` threads
/// (`threadId` is this one's): 16-byte cp.async where the operand allows,
/// else element loads and stores. Zeros past the operand's extents and
/// where `enabled` (if given) is false.
void emitTileCopy(OpBuilder &b, Location loc, const StagedOperand &operand,
                  Value threadId, int64_t numThreads, Value rowOrigin,
                  Value columnOrigin, Value stage, Value enabled);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_SHAREDTILES_H
