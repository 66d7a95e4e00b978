//===- SharedTiles.cpp - Operand tiles staged in shared memory ------------===//

#include "passes/Conversion/UTAToGPU/Gemm/SharedTiles.h"

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {
/// Elements of the operand's type per 16-byte chunk.
int64_t getChunkElements(const StagedOperand &operand) {
  Type elementType =
      cast<MemRefType>(operand.buffer.getType()).getElementType();
  return 16 / (elementType.getIntOrFloatBitWidth() / 8);
}
} // namespace

Swizzle mlir::uta::getRowSwizzle(int64_t rowBytes, bool readByLdmatrix) {
  if (rowBytes <= 64)
    return {1, 3, 0};
  if (readByLdmatrix)
    return {0, 7, 0};
  return {0, 3, 1};
}

Value mlir::uta::emitSwizzledColumn(OpBuilder &b, Location loc,
                                    const StagedOperand &operand, Value row,
                                    Value column) {
  IndexMath math(b, loc);
  int64_t vec = getChunkElements(operand);
  Value chunk = math.div(column, vec);
  Value key = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, row, math.index(operand.swizzle.rowShift)),
      math.index(operand.swizzle.rowMask));
  key =
      arith::ShLIOp::create(b, loc, key, math.index(operand.swizzle.xorShift));
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, key);
  // One op per statement (the order gcc gave the nested calls): the IR must
  // not depend on argument evaluation order.
  Value inChunk = math.rem(column, vec);
  Value chunkStart = math.mul(swizzled, vec);
  return math.add(chunkStart, inChunk);
}

void mlir::uta::emitTileCopy(OpBuilder &b, Location loc,
                             const StagedOperand &operand, Value threadId,
                             int64_t numThreads, Value rowOrigin,
                             Value columnOrigin, Value stage, Value enabled) {
  IndexMath math(b, loc);
  int64_t vec = getChunkElements(operand);
  int64_t chunksPerRow = operand.columns / vec;
  Type elementType =
      cast<MemRefType>(operand.buffer.getType()).getElementType();
  for (int64_t first = 0; first < operand.rows * chunksPerRow;
       first += numThreads) {
    Value chunkId = math.add(threadId, first);
    Value row = math.div(chunkId, chunksPerRow);
    Value column = math.mul(math.rem(chunkId, chunksPerRow), vec);
    Value globalRow = math.add(rowOrigin, row);
    Value globalColumn = math.add(columnOrigin, column);
    Value inRange = enabled;
    int64_t columnTile = operand.columns;
    requireBelow(b, loc, inRange, globalRow, operand.globalRows, operand.rows);
    requireBelow(b, loc, inRange, globalColumn, operand.globalColumns,
                 columnTile);
    Value destinationColumn = emitSwizzledColumn(b, loc, operand, row, column);
    SmallVector<Value> destination{stage, row, destinationColumn};

    if (operand.asyncCopy) {
      // Past the bounds: copy 0 bytes (cp.async zero-fills) from the
      // operand's first element, a valid address.
      Value sourceElements = math.index(vec);
      if (inRange) {
        sourceElements = arith::SelectOp::create(
            b, loc, inRange, math.index(vec), math.index(0));
        globalRow =
            arith::SelectOp::create(b, loc, inRange, globalRow, math.index(0));
        globalColumn = arith::SelectOp::create(b, loc, inRange, globalColumn,
                                               math.index(0));
      }
      SmallVector<Value> source(operand.batch);
      source.append({globalRow, globalColumn});
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()),
          operand.buffer, destination, operand.global, source,
          b.getIndexAttr(vec), inRange ? sourceElements : Value(),
          /*bypassL1=*/b.getUnitAttr());
      continue;
    }
    // Unaligned rows: element by element, each checked on its own (a chunk
    // may straddle K's end).
    for (int64_t e = 0; e < vec; ++e) {
      Value elementColumn = math.add(globalColumn, e);
      Value elementInRange = inRange;
      requireBelow(b, loc, elementInRange, elementColumn, operand.globalColumns,
                   columnTile);
      SmallVector<Value> source(operand.batch);
      source.append({globalRow, elementColumn});
      Value value;
      if (!elementInRange) {
        value = memref::LoadOp::create(b, loc, operand.global, source);
      } else {
        auto guard = scf::IfOp::create(b, loc, TypeRange{elementType},
                                       elementInRange, true);
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToStart(guard.thenBlock());
        scf::YieldOp::create(
            b, loc,
            ValueRange{memref::LoadOp::create(b, loc, operand.global, source)});
        b.setInsertionPointToStart(guard.elseBlock());
        scf::YieldOp::create(b, loc,
                             ValueRange{arith::ConstantOp::create(
                                 b, loc, b.getFloatAttr(elementType, 0.0))});
        value = guard.getResult(0);
      }
      SmallVector<Value> slot{stage, row, math.add(destinationColumn, e)};
      memref::StoreOp::create(b, loc, value, operand.buffer, slot);
    }
  }
}
