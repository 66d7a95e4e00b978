//===- FcProductSchedules.cpp - What fc_product's kernels share -----------===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::uta;

bool mlir::uta::hasF32OperandsInMemory(Operation *op) {
  if (auto fusion = dyn_cast<FusionOp>(op->getParentOp()))
    for (Value operand : op->getOperands())
      if (operand.getParentBlock() != &fusion.getBody().front() ||
          !isa<BlockArgument>(operand))
        return false;
  auto isF32 = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType().isF32();
  };
  return llvm::all_of(op->getOperands(), isF32) &&
         llvm::all_of(op->getResults(), isF32);
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

GemmBlockPosition mlir::uta::emitFcProductBlockPosition(
    OpBuilder &b, Location loc, const FcProductPlan &plan,
    const FcProductGemm &fc, Value blockIndex) {
  IndexMath math(b, loc);
  int64_t tilesM = plan.gemm.getTilesM(), tilesN = plan.gemm.getTilesN();
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
  return makeGemmBlockPosition(b, loc, plan.gemm, blade, tileRow, tileColumn);
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
