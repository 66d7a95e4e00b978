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

/// The position of the tile (tileRow, tileColumn) of batch element
/// `batchLinear`.
static GemmBlockPosition makeBlockPosition(OpBuilder &b, Location loc,
                                           const GemmPlan &plan,
                                           Value batchLinear, Value tileRow,
                                           Value tileColumn) {
  const GemmProblem &p = plan.problem;
  IndexMath math(b, loc);
  GemmBlockPosition position;
  position.batch = delinearize(b, loc, batchLinear, p.batchShape);
  position.lhsBatch = broadcastIndices(b, loc, position.batch, p.lhsBatchShape);
  position.rhsBatch = broadcastIndices(b, loc, position.batch, p.rhsBatchShape);
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

  return makeBlockPosition(b, loc, plan, batchLinear, tileRow, tileColumn);
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

  return makeBlockPosition(b, loc, plan, batchLinear, tileRow, tileColumn);
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

/// A switch over `key` whose case `k` yields `values[k]` (index constants,
/// or f32 where `isFloat`), and zeros for any other key.
static SmallVector<Value>
emitConstantTable(OpBuilder &b, Location loc, Value key,
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

Value mlir::uta::emitFcProductStepCount(OpBuilder &b, Location loc,
                                        const FcProductGemm &fc, Value blade,
                                        int64_t kTiles) {
  SmallVector<SmallVector<double>> slotCounts;
  for (ArrayRef<FcProductGemmSlot> slots : fc.slotsOfBlade)
    slotCounts.push_back({static_cast<double>(slots.size())});
  Value slots = emitConstantTable(b, loc, blade, slotCounts, {false})[0];
  return arith::MulIOp::create(b, loc, slots,
                               arith::ConstantIndexOp::create(b, loc, kTiles));
}

SmallVector<unsigned>
mlir::uta::getFcProductBladeOrder(const FcProductGemm &fc) {
  auto slotCount = [&](unsigned blade) {
    return fc.slotsOfBlade[blade].size();
  };
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, fc.slotsOfBlade.size()));
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    if (slotCount(lhs) != slotCount(rhs))
      return slotCount(lhs) > slotCount(rhs);
    return lhs < rhs;
  });
  return order;
}

GemmBlockPosition mlir::uta::emitFcProductBlockPosition(OpBuilder &b,
                                                        Location loc,
                                                        const GemmPlan &plan,
                                                        const FcProductGemm &fc,
                                                        Value blockIndex) {
  IndexMath math(b, loc);
  int64_t tilesM = plan.getTilesM(), tilesN = plan.getTilesN();
  auto slotCount = [&](unsigned blade) {
    return fc.slotsOfBlade[blade].size();
  };
  SmallVector<unsigned> order = getFcProductBladeOrder(fc);

  // Chunks of chunkRows row tiles (fewer in the last), each holding every
  // block of its row tiles.
  int64_t chunkRows = plan.longBlocksFirstRows;
  int64_t rowTileBlocks = static_cast<int64_t>(order.size()) * tilesN;
  Value blockId = blockIndex
                      ? blockIndex
                      : gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value chunk = chunkRows >= tilesM
                    ? math.index(0)
                    : math.div(blockId, chunkRows * rowTileBlocks);
  Value chunkFirstRow = math.mul(chunk, chunkRows);
  Value rowsInChunk = arith::MinUIOp::create(
      b, loc, math.index(chunkRows),
      arith::SubIOp::create(b, loc, math.index(tilesM), chunkFirstRow));
  Value inChunk = arith::SubIOp::create(
      b, loc, blockId, math.mul(chunk, chunkRows * rowTileBlocks));
  // The blocks of one blade over the chunk's row tiles.
  Value rowGroupBlocks = math.mul(rowsInChunk, tilesN);

  // The group of blades with the block's slot count: its first position in
  // `order`, its size and its first block in the chunk.
  Value groupStart, groupSize, groupFirstBlock;
  int64_t position = 0;
  while (position < static_cast<int64_t>(order.size())) {
    int64_t size = 1;
    while (position + size < static_cast<int64_t>(order.size()) &&
           slotCount(order[position + size]) == slotCount(order[position]))
      ++size;
    Value firstBlock =
        arith::MulIOp::create(b, loc, rowGroupBlocks, math.index(position));
    if (!groupStart) {
      groupStart = math.index(position);
      groupSize = math.index(size);
      groupFirstBlock = firstBlock;
    } else {
      Value inGroup = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            inChunk, firstBlock);
      auto choose = [&](Value value, Value otherwise) -> Value {
        return arith::SelectOp::create(b, loc, inGroup, value, otherwise);
      };
      groupStart = choose(math.index(position), groupStart);
      groupSize = choose(math.index(size), groupSize);
      groupFirstBlock = choose(firstBlock, groupFirstBlock);
    }
    position += size;
  }

  // Inside a group: row tiles outermost, then blades, then column tiles.
  Value inGroup = arith::SubIOp::create(b, loc, inChunk, groupFirstBlock);
  Value perRowTile =
      arith::MulIOp::create(b, loc, groupSize, math.index(tilesN));
  Value tileRow = math.add(chunkFirstRow,
                           arith::DivUIOp::create(b, loc, inGroup, perRowTile));
  Value inRowTile = arith::RemUIOp::create(b, loc, inGroup, perRowTile);
  Value bladePosition = math.add(groupStart, math.div(inRowTile, tilesN));
  Value tileColumn = math.rem(inRowTile, tilesN);
  Value blade = bladePosition;
  if (!llvm::is_sorted(order)) {
    SmallVector<SmallVector<double>> bladeOf;
    for (unsigned ordered : order)
      bladeOf.push_back({static_cast<double>(ordered)});
    blade = emitConstantTable(b, loc, bladePosition, bladeOf, {false})[0];
  }
  return makeBlockPosition(b, loc, plan, blade, tileRow, tileColumn);
}

FcProductStep mlir::uta::emitFcProductStep(OpBuilder &b, Location loc,
                                           const FcProductGemm &fc, Value blade,
                                           Value step, int64_t kTiles) {
  int64_t terms = fc.termsPerSlot;
  int64_t maxSlots = 0;
  for (ArrayRef<FcProductGemmSlot> slots : fc.slotsOfBlade)
    maxSlots = std::max<int64_t>(maxSlots, slots.size());
  // Row blade * maxSlots + slot: the path, then per term the x blade, the
  // y blade and the sign.
  SmallVector<SmallVector<double>> slotRows;
  SmallVector<bool> isFloat{false};
  for (int64_t t = 0; t < terms; ++t)
    isFloat.append({false, false, true});
  for (ArrayRef<FcProductGemmSlot> slots : fc.slotsOfBlade)
    for (int64_t s = 0; s < maxSlots; ++s) {
      SmallVector<double> row(isFloat.size(), 0.0);
      if (s < static_cast<int64_t>(slots.size())) {
        row[0] = slots[s].path;
        for (auto [t, term] : llvm::enumerate(slots[s].terms)) {
          row[1 + 3 * t] = term.lhs;
          row[2 + 3 * t] = term.rhs;
          row[3 + 3 * t] = term.sign;
        }
      }
      slotRows.push_back(std::move(row));
    }
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // One op per statement: the IR must not depend on argument evaluation
  // order.
  Value slotBase = arith::MulIOp::create(b, loc, blade, index(maxSlots));
  Value slot = arith::DivUIOp::create(b, loc, step, index(kTiles));
  Value key = arith::AddIOp::create(b, loc, slotBase, slot);
  SmallVector<Value> values = emitConstantTable(b, loc, key, slotRows, isFloat);
  FcProductStep info;
  info.path = values[0];
  for (int64_t t = 0; t < terms; ++t) {
    info.lhs.push_back(values[1 + 3 * t]);
    info.rhs.push_back(values[2 + 3 * t]);
    info.sign.push_back(values[3 + 3 * t]);
  }
  return info;
}
