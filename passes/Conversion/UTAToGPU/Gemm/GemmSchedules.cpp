//===- GemmSchedules.cpp - What the GEMM schedules share ------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

/// Tiles along M per group of the block order. A wave of ~128 blocks of
/// 128x256 tiles then spans 16 row tiles and 8 column tiles, whose A and B
/// are equal in bytes: the fewest bytes a wave reads for the blocks it
/// runs (H100, three interleaved rounds against 8 rows: 4096^3 TF32 0.379
/// -> 0.376 ms, 8192^3 bf16 1.441 -> 1.434, 3xTF32 equal; 4 rows was
/// 1-4% slower than 8).
static constexpr int64_t kGroupRows = 16;

GemmBlockPosition mlir::uta::makeGemmBlockPosition(OpBuilder &b, Location loc,
                                                   const GemmPlan &plan,
                                                   Value batchLinear,
                                                   Value tileRow,
                                                   Value tileColumn) {
  const GemmProblem &p = plan.problem;
  IndexMath math(b, loc);
  GemmBlockPosition position;
  position.batch = delinearize(b, loc, batchLinear, p.batchShape);
  if (p.lhsBatchOf.empty()) {
    position.lhsBatch =
        broadcastIndices(b, loc, position.batch, p.lhsBatchShape);
    position.rhsBatch =
        broadcastIndices(b, loc, position.batch, p.rhsBatchShape);
  } else {
    assert(p.batchShape.size() == 1 &&
           int64_t(p.lhsBatchOf.size()) == p.batchShape.front() &&
           p.rhsBatchOf.size() == p.lhsBatchOf.size() &&
           "a grouped GEMM has one table entry per batch element");
    // A chain of selects, once per block, rather than a switch: SPIR-V and
    // MSL take it.
    Value lhs = math.index(p.lhsBatchOf.front()),
          rhs = math.index(p.rhsBatchOf.front());
    for (size_t e = 1; e < p.lhsBatchOf.size(); ++e) {
      Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         batchLinear, math.index(e));
      lhs = arith::SelectOp::create(b, loc, here, math.index(p.lhsBatchOf[e]),
                                    lhs);
      rhs = arith::SelectOp::create(b, loc, here, math.index(p.rhsBatchOf[e]),
                                    rhs);
    }
    position.lhsBatch = {lhs};
    position.rhsBatch = {rhs};
  }
  position.row = math.mul(tileRow, plan.config.tileM);
  position.column = math.mul(tileColumn, plan.config.tileN);
  return position;
}

GemmBlockPosition mlir::uta::emitGemmBlockPosition(OpBuilder &b, Location loc,
                                                   const GemmPlan &plan) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
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

  return makeGemmBlockPosition(b, loc, plan, batchLinear, tileRow, tileColumn);
}

GemmBlockPosition
mlir::uta::emitGemmBlockPositionRowsOuter(OpBuilder &b, Location loc,
                                          const GemmPlan &plan) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  const GemmProblem &p = plan.problem;
  int64_t tilesN = plan.getTilesN();
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value perRowTile = index(p.getBatchCount() * tilesN);
  Value tileRow = arith::DivUIOp::create(b, loc, blockId, perRowTile);
  Value inRowTile = arith::RemUIOp::create(b, loc, blockId, perRowTile);
  Value batchLinear = arith::DivUIOp::create(b, loc, inRowTile, index(tilesN));
  Value tileColumn = arith::RemUIOp::create(b, loc, inRowTile, index(tilesN));

  return makeGemmBlockPosition(b, loc, plan, batchLinear, tileRow, tileColumn);
}

void mlir::uta::emitIfBelow(OpBuilder &b, Location loc, Value index,
                            Value bound, function_ref<void()> body) {
  std::optional<int64_t> constantIndex = getConstantIntValue(index);
  std::optional<int64_t> constantBound = getConstantIntValue(bound);
  if (constantIndex && constantBound) {
    if (*constantIndex < *constantBound)
      body();
    return;
  }
  auto below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, bound);
  auto branch = scf::IfOp::create(b, loc, below, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(branch.thenBlock());
  body();
}

Value IndexMath::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value IndexMath::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value IndexMath::add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }

Value GemmScheduleEmitter::isBelow(Value x, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                               index(bound));
}

Value GemmScheduleEmitter::isAtLeast(Value x, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, x,
                               index(bound));
}

void GemmScheduleEmitter::emitIf(Value condition, function_ref<void()> body) {
  OpBuilder::InsertionGuard guard(b);
  auto op = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  b.setInsertionPointToStart(op.thenBlock());
  body();
}

Value IndexMath::sub(Value x, int64_t y) {
  return y ? arith::SubIOp::create(b, loc, x, index(y)).getResult() : x;
}

Value IndexMath::mul(Value x, int64_t y) {
  return arith::MulIOp::create(b, loc, x, index(y));
}

Value IndexMath::div(Value x, int64_t y) {
  return arith::DivUIOp::create(b, loc, x, index(y));
}

Value IndexMath::rem(Value x, int64_t y) {
  return arith::RemUIOp::create(b, loc, x, index(y));
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

SmallVector<Value>
mlir::uta::emitConstantTable(OpBuilder &b, Location loc, Value key,
                             ArrayRef<SmallVector<double>> values,
                             ArrayRef<bool> isFloat) {
  SmallVector<Type> types;
  for (bool f : isFloat)
    types.push_back(f ? Type(b.getF32Type()) : Type(b.getIndexType()));
  SmallVector<int64_t> cases =
      llvm::to_vector(llvm::seq<int64_t>(0, values.size()));
  auto table =
      scf::IndexSwitchOp::create(b, loc, types, key, cases, cases.size());
  auto yield = [&](Region &region, ArrayRef<double> row) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&region.emplaceBlock());
    SmallVector<Value> results;
    for (auto [value, f] : llvm::zip_equal(row, isFloat))
      results.push_back(
          f ? Value(arith::ConstantOp::create(
                  b, loc, b.getF32FloatAttr(static_cast<float>(value))))
            : Value(arith::ConstantIndexOp::create(
                  b, loc, static_cast<int64_t>(value))));
    scf::YieldOp::create(b, loc, results);
  };
  for (auto [region, row] : llvm::zip_equal(table.getCaseRegions(), values))
    yield(region, row);
  yield(table.getDefaultRegion(), SmallVector<double>(isFloat.size(), 0.0));
  return SmallVector<Value>(table.getResults());
}
