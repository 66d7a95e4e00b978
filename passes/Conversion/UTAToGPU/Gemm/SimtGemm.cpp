//===- SimtGemm.cpp - The tiled SIMT schedule of the GEMM engine ----------===//
//
// Every target, every dtype: per K step of tileK, the block stages an A tile
// (stored K-major, [tileK][tileM]) and a B tile ([tileK][tileN]) in
// workgroup memory, widened to f32; each thread then accumulates a register
// tile of (tileM / threadsM) x (tileN / threadsN) outputs with FMAs. Thread
// (tx, ty) owns rows ty + threadsM * i and columns tx + threadsN * j, so
// that the threads of a warp read consecutive words of the B tile and the
// same word of the A tile (no bank conflicts), and store consecutive
// columns. Elements past M, N or K are staged as zeros.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {
/// Emits one block's work; the state every step shares.
class SimtGemmEmitter : GemmScheduleEmitter {
public:
  using GemmScheduleEmitter::GemmScheduleEmitter;

  void emit(ElementEpilogue epilogue);

private:
  /// operand[batch..., row, column], or 0 where row >= rows or column >=
  /// columns (checked only where tiles do not divide the extent).
  Value readGuarded(unsigned operand, ArrayRef<Value> batch, Value row,
                    Value column, int64_t rows, int64_t rowTile,
                    int64_t columns, int64_t columnTile);
  /// Stages operand `operand`'s tile of K step `k0` into `tile`
  /// ([tileK][tileExtent]): its other axis from `origin`, of `extent`
  /// elements, K contiguous or not.
  void stageTile(unsigned operand, ArrayRef<Value> batch, Value tile,
                 Value origin, int64_t extent, int64_t tileExtent,
                 bool kContiguous, Value k0);
  /// Stages the A and B tiles of K step `k0`.
  void stageTiles(Value k0);

  Value threadId, aTile, bTile;
};
} // namespace

Value SimtGemmEmitter::readGuarded(unsigned operand, ArrayRef<Value> batch,
                                   Value row, Value column, int64_t rows,
                                   int64_t rowTile, int64_t columns,
                                   int64_t columnTile) {
  SmallVector<Value> indices(batch);
  indices.append({row, column});
  Value inRange;
  requireBelow(b, loc, inRange, row, rows, rowTile);
  requireBelow(b, loc, inRange, column, columns, columnTile);
  if (!inRange)
    return io.read(b, loc, operand, indices);
  auto guard = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, inRange,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(guard.thenBlock());
    scf::YieldOp::create(b, loc, io.read(b, loc, operand, indices));
    b.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(b, loc, f32Constant(b, loc, 0.0));
  }
  return guard.getResult(0);
}

void SimtGemmEmitter::stageTile(unsigned operand, ArrayRef<Value> batch,
                                Value tile, Value origin, int64_t extent,
                                int64_t tileExtent, bool kContiguous,
                                Value k0) {
  // Consecutive threads read the operand's contiguous axis: k where
  // kContiguous, else its other axis (m of a transposed A, n of B).
  for (int64_t first = 0; first < tileExtent * c.tileK;
       first += c.getNumThreads()) {
    Value e = arith::AddIOp::create(b, loc, threadId, index(first));
    int64_t inner = kContiguous ? c.tileK : tileExtent;
    Value outerIndex = arith::DivUIOp::create(b, loc, e, index(inner));
    Value innerIndex = arith::RemUIOp::create(b, loc, e, index(inner));
    Value kk = kContiguous ? innerIndex : outerIndex;
    Value x = kContiguous ? outerIndex : innerIndex;
    Value globalK = arith::AddIOp::create(b, loc, k0, kk);
    Value globalX = arith::AddIOp::create(b, loc, origin, x);
    // As stored: [x][k] where K is contiguous, else [k][x].
    Value value = kContiguous ? readGuarded(operand, batch, globalX, globalK,
                                            extent, tileExtent, p.k, c.tileK)
                              : readGuarded(operand, batch, globalK, globalX,
                                            p.k, c.tileK, extent, tileExtent);
    Value slot = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, kk, index(tileExtent)), x);
    memref::StoreOp::create(b, loc, value, tile, slot);
  }
}

void SimtGemmEmitter::stageTiles(Value k0) {
  stageTile(0, block.lhsBatch, aTile, block.row, p.m, c.tileM,
            /*kContiguous=*/!p.transposeA, k0);
  stageTile(1, block.rhsBatch, bTile, block.column, p.n, c.tileN,
            /*kContiguous=*/p.transposeB, k0);
}

void SimtGemmEmitter::emit(ElementEpilogue epilogue) {
  int64_t threadsM = c.warpsM, threadsN = c.warpsN;
  int64_t rowsPerThread = c.tileM / threadsM;
  int64_t columnsPerThread = c.tileN / threadsN;
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  block = emitGemmBlockPosition(b, loc, plan);
  aTile = io.allocateWorkgroupBuffer(b, loc, c.tileK * c.tileM);
  bTile = io.allocateWorkgroupBuffer(b, loc, c.tileK * c.tileN);
  Value tx = arith::RemUIOp::create(b, loc, threadId, index(threadsN));
  Value ty = arith::DivUIOp::create(b, loc, threadId, index(threadsN));

  SmallVector<Value> zeros(rowsPerThread * columnsPerThread,
                           f32Constant(b, loc, 0.0));
  int64_t steps = llvm::divideCeil(p.k, c.tileK);
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(steps), index(1), zeros,
      [&](OpBuilder &nb, Location, Value step, ValueRange accumulators) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        stageTiles(arith::MulIOp::create(b, loc, step, index(c.tileK)));
        gpu::BarrierOp::create(b, loc);
        SmallVector<Value> acc(accumulators);
        for (int64_t kk = 0; kk < c.tileK; ++kk) {
          SmallVector<Value> as, bs;
          for (int64_t i = 0; i < rowsPerThread; ++i)
            as.push_back(memref::LoadOp::create(
                b, loc, aTile,
                ValueRange{arith::AddIOp::create(
                    b, loc, ty, index(kk * c.tileM + threadsM * i))}));
          for (int64_t j = 0; j < columnsPerThread; ++j)
            bs.push_back(memref::LoadOp::create(
                b, loc, bTile,
                ValueRange{arith::AddIOp::create(
                    b, loc, tx, index(kk * c.tileN + threadsN * j))}));
          for (int64_t i = 0; i < rowsPerThread; ++i)
            for (int64_t j = 0; j < columnsPerThread; ++j) {
              Value &sum = acc[i * columnsPerThread + j];
              sum = math::FmaOp::create(b, loc, as[i], bs[j], sum);
            }
        }
        // The next step overwrites the tiles.
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, acc);
      });

  for (int64_t i = 0; i < rowsPerThread; ++i)
    for (int64_t j = 0; j < columnsPerThread; ++j) {
      Value row = arith::AddIOp::create(b, loc, ty, index(threadsM * i));
      Value column = arith::AddIOp::create(b, loc, tx, index(threadsN * j));
      emitGemmEpilogueElement(b, loc, plan, block, row, column,
                              loop.getResult(i * columnsPerThread + j),
                              epilogue);
    }
}

LogicalResult mlir::uta::emitSimtGemm(OpBuilder &b, Location loc,
                                      const GemmPlan &plan, KernelIO &io,
                                      ElementEpilogue epilogue) {
  SimtGemmEmitter(b, loc, plan, io).emit(epilogue);
  return success();
}
