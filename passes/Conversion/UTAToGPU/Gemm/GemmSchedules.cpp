//===- GemmSchedules.cpp - What the GEMM schedules share ------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

/// Tiles along M per group of the block order.
static constexpr int64_t kGroupRows = 8;

GemmBlockPosition mlir::uta::emitGemmBlockPosition(OpBuilder &b, Location loc,
                                                   const GemmPlan &plan) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  const GemmProblem &p = plan.problem;
  int64_t tilesM = plan.getTilesM(), tilesN = plan.getTilesN();
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value perBatch = index(tilesM * tilesN);
  Value batchLinear = arith::DivUIOp::create(b, loc, blockId, perBatch);
  Value tile = arith::RemUIOp::create(b, loc, blockId, perBatch);

  // Group g holds tiles rows [g * kGroupRows, ...) (fewer in the last
  // group), every column; inside it, consecutive blocks walk M first.
  Value perGroup = index(kGroupRows * tilesN);
  Value group = arith::DivUIOp::create(b, loc, tile, perGroup);
  Value firstRow = arith::MulIOp::create(b, loc, group, index(kGroupRows));
  Value groupRows = arith::MinUIOp::create(
      b, loc, index(kGroupRows),
      arith::SubIOp::create(b, loc, index(tilesM), firstRow));
  Value inGroup = arith::RemUIOp::create(b, loc, tile, perGroup);
  Value tileRow = arith::AddIOp::create(
      b, loc, firstRow, arith::RemUIOp::create(b, loc, inGroup, groupRows));
  Value tileColumn = arith::DivUIOp::create(b, loc, inGroup, groupRows);

  GemmBlockPosition position;
  position.batch = delinearize(b, loc, batchLinear, p.batchShape);
  position.lhsBatch = broadcastIndices(b, loc, position.batch, p.lhsBatchShape);
  position.rhsBatch = broadcastIndices(b, loc, position.batch, p.rhsBatchShape);
  position.row =
      arith::MulIOp::create(b, loc, tileRow, index(plan.config.tileM));
  position.column =
      arith::MulIOp::create(b, loc, tileColumn, index(plan.config.tileN));
  return position;
}

Value GemmScheduleEmitter::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

void mlir::uta::requireBelow(OpBuilder &b, Location loc, Value &inRange,
                             Value index, int64_t size, int64_t tile) {
  if (tile != 0 && size % tile == 0)
    return;
  Value below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                            arith::ConstantIndexOp::create(b, loc, size));
  inRange = inRange ? arith::AndIOp::create(b, loc, inRange, below) : below;
}

void mlir::uta::emitGemmEpilogueElement(OpBuilder &b, Location loc,
                                        const GemmPlan &plan,
                                        const GemmBlockPosition &block,
                                        Value row, Value column, Value value,
                                        ElementEpilogue epilogue) {
  const GemmProblem &p = plan.problem;
  Value m = arith::AddIOp::create(b, loc, block.row, row);
  Value n = arith::AddIOp::create(b, loc, block.column, column);
  SmallVector<Value> indices(block.batch);
  indices.append({m, n});
  Value inRange;
  requireBelow(b, loc, inRange, m, p.m, plan.config.tileM);
  requireBelow(b, loc, inRange, n, p.n, plan.config.tileN);
  if (!inRange) {
    epilogue(b, loc, indices, value);
    return;
  }
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(guard.thenBlock());
  epilogue(b, loc, indices, value);
}
