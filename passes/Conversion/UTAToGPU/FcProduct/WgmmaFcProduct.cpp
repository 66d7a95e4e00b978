//===- WgmmaFcProduct.cpp - clifford.fc_product on wgmma (sm_90a) ---------===//
//
// z_k = sum over the slots of result blade k of (signed pair products of
// the slot's terms) @ w[path]: one GEMM per blade, whose K runs over the
// slots times Fin. A block computes a tileM x tileN tile of one blade, in
// warpsM warpgroups of 64-row slabs. Every blade reads every blade of x
// and y: with many blades, blocks are ordered row tile first, so that the
// blocks running together share their rows of x and y in L2.
//
// wgmma reads A and B from shared memory, K-major, and TF32 operands cannot
// be transposed by the instruction. So each K step has two phases:
//   1. staging: per stage, the x and y tiles of each term ([tileM][tileK];
//      none for a missing term, which slots of fewer terms than the most
//      have: Cl(2,0) has 16 terms in 14 slots of up to 2), each one box of
//      a tensor map copied by the tensor memory accelerator, completing on
//      the stage's mbarrier (cp.async by every thread where rows are not
//      16-byte aligned), and the weights' tile of the step's path as stored
//      ([tileK][tileN] by cp.async, or, with transpose_weights, [tileN]
//      [tileK] as one more box, whose tensor map lays the rows out in the
//      swizzle the wgmma descriptors name, on the same mbarrier);
//   2. forming: after a barrier every thread computes four elements at a
//      time of the A tile, sum over terms of sign * x * y (the x and y
//      tiles share A's layout, so the products are element by element; a
//      missing term is skipped by a branch uniform over the block), and
//      transposes the weights' tile into a K-major one, rounding both
//      to TF32 (3xTF32: the rounded high parts and the exact remainders in
//      tiles of their own). K-major weights (transpose_weights) are read
//      by the tensor cores where they are staged, as TF32 by truncation
//      (3xTF32 forms their remainders w - tf32(w) only), and each stage
//      then stays in use until its products are done. A proxy fence and a
//      barrier later, the warpgroups run the step's wgmmas on the formed
//      tiles and wait for them before the next step forms new ones.
// The pair products never reach global memory. Copies of the next stage
// overlap the forming and the products of this one. In plain TF32 the
// formed tiles are double-buffered, so that the tensor cores multiply the
// tiles of step s while the threads form those of step s + 1 (one wgmma
// group in flight); 3xTF32, whose formed tiles are twice as many, forms
// and multiplies in turn, waiting for each step's products before adding
// them, as fresh accumulators, to the running ones.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/SharedTiles.h"
#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// Result blades from which blocks are ordered row tile first.
constexpr size_t kRowsOuterMinBlades = 8;

/// f32 elements per vector of the forming phase (16 bytes).
constexpr int64_t kVectorWidth = 4;

class WgmmaFcProductEmitter : GemmScheduleEmitter {
public:
  WgmmaFcProductEmitter(OpBuilder &b, Location loc, const FcProductPlan &plan,
                        KernelIO &io)
      : GemmScheduleEmitter(b, loc, plan.gemm, io), fcPlan(plan) {}

  LogicalResult emit(const FcProductGemm &fc, ElementEpilogue epilogue);

private:
  const FcProductPlan &fcPlan;
  /// Formed K-major tiles of `rows` x tileK, one per formed stage.
  StagedOperand allocateFormedTile(int64_t rows);
  /// Whether the term of sign `sign` exists (sign != 0).
  Value isPresent(Value sign) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, sign,
                                 zeroSign);
  }
  /// Issues the copies of step `step`'s x, y and weight tiles into `stage`.
  void copyStep(Value step, Value stage);
  /// The first thread expects the bytes of step `info`'s x and y tiles on
  /// `stage`'s mbarrier and issues their boxes (fcPlan.tmaRows).
  void copyRowsByTensorMap(const FcProductStep &info, Value stage, Value k0);
  /// Makes the tensor maps of x and y and initializes the stages'
  /// mbarriers (fcPlan.tmaRows).
  LogicalResult setUpTensorMaps();
  /// Waits for step `step`'s x and y tiles (fcPlan.tmaRows).
  void waitForRows(Value step);
  /// Stores `value` (f32, scalar or vector) at `indices` of the formed high
  /// tile, rounded to TF32, and for 3xTF32 its remainder in the low tile.
  void storeFormed(Value value, const StagedOperand &high,
                   const StagedOperand &low, ValueRange indices);
  /// Forms the A tile and the K-major weights' tile of staged `stage` into
  /// formed stage `formed`.
  void formTiles(Value stage, const FcProductStep &step, Value formed);
  /// Writes the remainders w - tf32(w) of staged `stage`'s K-major weights
  /// into formed stage `formed` (3xTF32; the tensor cores read the high
  /// parts where they are staged).
  void formWeightRemainders(Value stage, Value formed);
  /// Issues the wgmmas of formed stage `formed` (and, for K-major weights,
  /// staged stage `stage`) into `acc` and commits them as one group.
  void issueProducts(SmallVectorImpl<Value> &acc, Value formed, Value stage);
  /// Forms, then multiplies, step by step (3xTF32).
  SmallVector<Value> emitSerialLoop(Value steps, Value zero);
  /// Multiplies step s while forming step s + 1 (TF32).
  SmallVector<Value> emitOverlappedLoop(Value steps, Value zero);

  /// Bytes of a row of the formed tiles: tileK f32, 128 or 64 (the
  /// swizzle's width).
  int64_t rowBytes() const { return c.tileK * 4; }

  const FcProductGemm *fc = nullptr;
  /// The weights are K-major (transpose_weights): copied into tiles the
  /// tensor cores read as staged, nothing formed but 3xTF32's remainders.
  bool weightsInPlace = false;
  /// x and y come by TMA (fcPlan.tmaRows): their tensor maps, and the
  /// ring of the stages' mbarriers (every thread copies and consumes: the
  /// stages are released at block-wide barriers).
  Value lhsMap, rhsMap;
  std::optional<StageRing> ring;
  /// K-major weights by TMA too, swizzled as wgmma reads them.
  Value weightsMap;
  Value threadId, warpgroup, blade;
  int64_t kTiles = 0;
  SmallVector<StagedOperand> lhsTiles, rhsTiles;
  StagedOperand weights;
  /// The formed tiles: A and the K-major weights, high parts and (3xTF32)
  /// remainders.
  StagedOperand aHigh, aLow, wHigh, wLow;
  Value zeroSign;
};

} // namespace

StagedOperand WgmmaFcProductEmitter::allocateFormedTile(int64_t rows) {
  StagedOperand tile;
  tile.rows = rows;
  tile.columns = c.tileK;
  tile.swizzle = getRowSwizzle(rowBytes(), /*readByLdmatrix=*/true);
  tile.buffer = io.allocateWorkgroupBuffer(
      b, loc, {fcPlan.getFormedTileSets(), rows, c.tileK}, p.elementType,
      kWgmmaTileAlignment);
  return tile;
}

void WgmmaFcProductEmitter::copyStep(Value step, Value stage) {
  FcProductStep info = emitFcProductStep(b, loc, *fc, blade, step, kTiles);
  Value k0 = mul(rem(step, kTiles), c.tileK);
  int64_t threads = c.getNumThreads();
  if (fcPlan.tmaRows)
    copyRowsByTensorMap(info, stage, k0);
  for (int64_t t = 0; !fcPlan.tmaRows && t < fc->termsPerSlot; ++t) {
    lhsTiles[t].batch = {info.lhs[t]};
    rhsTiles[t].batch = {info.rhs[t]};
    // Every slot has a first term; a later one may be missing (sign 0):
    // its tiles are neither copied nor read (see formTiles).
    OpBuilder::InsertionGuard guard(b);
    if (t > 0) {
      auto present = scf::IfOp::create(b, loc, isPresent(info.sign[t]),
                                       /*withElseRegion=*/false);
      b.setInsertionPointToStart(present.thenBlock());
    }
    emitTileCopy(b, loc, lhsTiles[t], threadId, threads, block.row, k0, stage,
                 /*enabled=*/nullptr);
    emitTileCopy(b, loc, rhsTiles[t], threadId, threads, block.row, k0, stage,
                 /*enabled=*/nullptr);
  }
  weights.batch = {info.path};
  if (weightsMap)
    return;
  if (weightsInPlace)
    emitTileCopy(b, loc, weights, threadId, threads, block.column, k0, stage,
                 /*enabled=*/nullptr);
  else
    emitTileCopy(b, loc, weights, threadId, threads, k0, block.column, stage,
                 /*enabled=*/nullptr);
}

void WgmmaFcProductEmitter::copyRowsByTensorMap(const FcProductStep &info,
                                                Value stage, Value k0) {
  // Every box is copied whole (zeros past x and y included): 2 tiles per
  // present term.
  Value presentTiles = index(2);
  for (int64_t t = 1; t < fc->termsPerSlot; ++t)
    presentTiles = add(presentTiles,
                       arith::SelectOp::create(b, loc, isPresent(info.sign[t]),
                                               index(2), index(0)));
  OpBuilder::InsertionGuard guard(b);
  auto first =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              threadId, index(0)),
                        /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  Value barrier = ring->getLanded(stage);
  Value stageBytes = mul(presentTiles, c.tileM * rowBytes());
  if (weightsMap)
    stageBytes = add(stageBytes, c.tileN * rowBytes());
  emitMbarrierArriveExpectBytes(b, loc, barrier, stageBytes);
  if (weightsMap) {
    Value destination = emitSharedPointer(b, loc, weights.buffer,
                                          mul(stage, c.tileN * rowBytes()));
    emitTensorMapCopy(b, loc, destination, weightsMap,
                      {k0, block.column, info.path}, barrier);
  }
  Value destinationOffset = mul(stage, c.tileM * rowBytes());
  for (int64_t tile = 0; tile < 2 * fc->termsPerSlot; ++tile) {
    int64_t term = tile / 2;
    bool isLhs = tile % 2 == 0;
    OpBuilder::InsertionGuard termGuard(b);
    if (term > 0) {
      auto present = scf::IfOp::create(b, loc, isPresent(info.sign[term]),
                                       /*withElseRegion=*/false);
      b.setInsertionPointToStart(present.thenBlock());
    }
    const StagedOperand &staged = isLhs ? lhsTiles[term] : rhsTiles[term];
    Value destination =
        emitSharedPointer(b, loc, staged.buffer, destinationOffset);
    // Coordinates innermost first: (k, row, blade) of [blades, M, K].
    Value operandBlade = isLhs ? info.lhs[term] : info.rhs[term];
    emitTensorMapCopy(b, loc, destination, isLhs ? lhsMap : rhsMap,
                      {k0, block.row, operandBlade}, barrier);
  }
}

LogicalResult WgmmaFcProductEmitter::setUpTensorMaps() {
  SmallVector<int64_t> box{1, c.tileM, c.tileK};
  lhsMap = io.getOperandTensorMap(0, box);
  rhsMap = io.getOperandTensorMap(1, box);
  if (weightsInPlace)
    weightsMap = io.getOperandTensorMap(2, {1, c.tileN, c.tileK},
                                        /*swizzle=*/rowBytes());
  if (!lhsMap || !rhsMap)
    return emitError(loc, "the wgmma fc_product copies x and y through "
                          "tensor maps of their buffers");
  StageRingLayout layout;
  layout.slots = c.stages;
  ring.emplace(b, loc, emitStageMbarriers(b, loc, io, c.stages, threadId),
               layout);
  return success();
}

void WgmmaFcProductEmitter::waitForRows(Value step) {
  if (!fcPlan.tmaRows)
    return;
  ring->emitWaitLanded(ring->getSlot(step), step);
}

void WgmmaFcProductEmitter::storeFormed(Value value, const StagedOperand &high,
                                        const StagedOperand &low,
                                        ValueRange indices) {
  auto store = [&](Value v, Value buffer) {
    if (isa<VectorType>(v.getType()))
      vector::StoreOp::create(b, loc, v, buffer, indices);
    else
      memref::StoreOp::create(b, loc, v, buffer, indices);
  };
  Value rounded = emitTf32Round(b, loc, value);
  store(rounded, high.buffer);
  if (plan.precision == GemmPrecision::Tf32x3)
    store(arith::SubFOp::create(b, loc, value, rounded), low.buffer);
}

void WgmmaFcProductEmitter::formTiles(Value stage, const FcProductStep &step,
                                      Value formed) {
  int64_t threads = c.getNumThreads();
  auto vectorType = VectorType::get({kVectorWidth}, b.getF32Type());
  // A: the x and y tiles and A share one layout; four elements of a row
  // are contiguous under the 16-byte swizzle.
  int64_t vectorsPerRow = c.tileK / kVectorWidth;
  SmallVector<Value> present;
  for (int64_t t = 0; t < fc->termsPerSlot; ++t)
    present.push_back(t ? isPresent(step.sign[t]) : Value());
  for (int64_t first = 0; first < c.tileM * vectorsPerRow; first += threads) {
    Value id = add(threadId, first);
    Value row = div(id, vectorsPerRow);
    Value plainColumn = mul(rem(id, vectorsPerRow), kVectorWidth);
    Value column = emitSwizzledColumn(b, loc, aHigh, row, plainColumn);
    // TMA boxes land unswizzled: four threads read one 64-byte row, a warp
    // eight whole rows, without bank conflicts.
    Value stagedColumn = fcPlan.tmaRows ? plainColumn : column;
    auto termProduct = [&](int64_t t) -> Value {
      Value x = vector::LoadOp::create(b, loc, vectorType, lhsTiles[t].buffer,
                                       ValueRange{stage, row, stagedColumn});
      Value y = vector::LoadOp::create(b, loc, vectorType, rhsTiles[t].buffer,
                                       ValueRange{stage, row, stagedColumn});
      Value sign =
          vector::BroadcastOp::create(b, loc, vectorType, step.sign[t]);
      Value product = arith::MulFOp::create(b, loc, x, y);
      return arith::MulFOp::create(b, loc, product, sign);
    };
    Value sum = termProduct(0);
    for (int64_t t = 1; t < fc->termsPerSlot; ++t) {
      // A missing term (the same for the whole block) adds nothing.
      auto added = scf::IfOp::create(b, loc, TypeRange{vectorType}, present[t],
                                     /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(added.thenBlock());
        Value product = termProduct(t);
        scf::YieldOp::create(
            b, loc, ValueRange{arith::AddFOp::create(b, loc, sum, product)});
        b.setInsertionPointToStart(added.elseBlock());
        scf::YieldOp::create(b, loc, ValueRange{sum});
      }
      sum = added.getResult(0);
    }
    storeFormed(sum, aHigh, aLow, ValueRange{formed, row, column});
  }
  if (weightsInPlace) {
    if (plan.precision == GemmPrecision::Tf32x3)
      formWeightRemainders(stage, formed);
    return;
  }
  // The weights: consecutive threads take consecutive k of one group of
  // four columns, so that their transposed stores go along a K-major row.
  for (int64_t first = 0; first < c.tileK * c.tileN / kVectorWidth;
       first += threads) {
    Value id = add(threadId, first);
    Value k = rem(id, c.tileK);
    Value n = mul(div(id, c.tileK), kVectorWidth);
    Value four = vector::LoadOp::create(
        b, loc, vectorType, weights.buffer,
        ValueRange{stage, k, emitSwizzledColumn(b, loc, weights, k, n)});
    for (int64_t i = 0; i < kVectorWidth; ++i) {
      Value row = add(n, i);
      Value element = vector::ExtractOp::create(b, loc, four, i);
      storeFormed(
          element, wHigh, wLow,
          ValueRange{formed, row, emitSwizzledColumn(b, loc, wHigh, row, k)});
    }
  }
}

void WgmmaFcProductEmitter::formWeightRemainders(Value stage, Value formed) {
  // The staged and the remainder tiles share a layout: four elements of a
  // row are contiguous under the swizzle.
  auto vectorType = VectorType::get({kVectorWidth}, b.getF32Type());
  int64_t vectorsPerRow = c.tileK / kVectorWidth;
  for (int64_t first = 0; first < c.tileN * vectorsPerRow;
       first += c.getNumThreads()) {
    Value id = add(threadId, first);
    Value row = div(id, vectorsPerRow);
    Value column = emitSwizzledColumn(
        b, loc, weights, row, mul(rem(id, vectorsPerRow), kVectorWidth));
    Value value = vector::LoadOp::create(b, loc, vectorType, weights.buffer,
                                         ValueRange{stage, row, column});
    Value high = emitTf32Truncate(b, loc, value);
    Value remainder = arith::SubFOp::create(b, loc, value, high);
    vector::StoreOp::create(b, loc, remainder, wLow.buffer,
                            ValueRange{formed, row, column});
  }
}

void WgmmaFcProductEmitter::issueProducts(SmallVectorImpl<Value> &acc,
                                          Value formed, Value stage) {
  int64_t warpgroupRows = c.tileM / c.warpsM;
  Value slabOffset = mul(warpgroup, warpgroupRows * rowBytes());
  auto descriptor = [&](const StagedOperand &tile, Value index, bool slabbed) {
    // One op per statement: the IR must not depend on argument evaluation
    // order.
    Value base = emitSharedAddress(b, loc, tile.buffer);
    Value offset = mul(index, tile.rows * rowBytes());
    Value address = add(base, offset);
    return emitWgmmaDescriptor(
        b, loc, slabbed ? add(address, slabOffset) : address, rowBytes());
  };
  bool split = plan.precision == GemmPrecision::Tf32x3;
  Value aHi = descriptor(aHigh, formed, true);
  Value wHi = weightsInPlace ? descriptor(weights, stage, false)
                             : descriptor(wHigh, formed, false);
  Value aLo, wLo;
  if (split) {
    aLo = descriptor(aLow, formed, true);
    wLo = descriptor(wLow, formed, false);
  }
  emitWgmmaStep(b, loc, acc, {aHi, wHi, aLo, wLo, {}, {}}, rowBytes(),
                c.tileK * 4 / kWgmmaStepBytes, p.elementType);
}

SmallVector<Value> WgmmaFcProductEmitter::emitSerialLoop(Value steps,
                                                         Value zero) {
  CpAsyncRing ring;
  ring.stages = c.stages;
  ring.ahead = c.stages - 1;
  return emitCpAsyncMainLoop(
      b, loc, ring, steps,
      SmallVector<Value>(c.tileM / c.warpsM / kWgmmaSlabRows, zero),
      [&](Value step, Value stage) { copyStep(step, stage); },
      [&](Value step, Value stage, SmallVectorImpl<Value> &acc) {
        waitForRows(step);
        formTiles(stage, emitFcProductStep(b, loc, *fc, blade, step, kTiles),
                  index(0));
        emitAsyncProxyFence(b, loc);
        gpu::BarrierOp::create(b, loc);
        // Fresh accumulators per step, added in round-to-nearest f32.
        SmallVector<Value> part(acc.size(), zero);
        issueProducts(part, index(0), stage);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
        for (auto [sum, tile] : llvm::zip_equal(acc, part))
          sum = emitWgmmaAccumulatorSum(b, loc, sum, tile);
      });
}

SmallVector<Value> WgmmaFcProductEmitter::emitOverlappedLoop(Value steps,
                                                             Value zero) {
  // Staged buffers hold steps s + 1 .. s + stages - 1 while step s is
  // multiplied (and step s itself where its weights are read in place:
  // then one step fewer is copied ahead); formed stage s % 2 holds step s.
  int64_t ahead = weightsInPlace ? c.stages - 1 : c.stages;
  auto copy = [&](Value step, Value stage) { copyStep(step, stage); };
  for (int64_t s = 0; s < ahead; ++s)
    emitCpAsyncStepCopies(b, loc, index(s), steps, index(s), copy);
  NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
  gpu::BarrierOp::create(b, loc);
  emitIfBelow(b, loc, index(0), steps, [&] {
    waitForRows(index(0));
    formTiles(index(0), emitFcProductStep(b, loc, *fc, blade, index(0), kTiles),
              index(0));
    emitAsyncProxyFence(b, loc);
  });
  gpu::BarrierOp::create(b, loc);

  SmallVector<Value> zeros(c.tileM / c.warpsM / kWgmmaSlabRows, zero);
  auto loop = scf::ForOp::create(
      b, loc, index(0), steps, index(1), zeros,
      [&](OpBuilder &nb, Location, Value step, ValueRange accumulators) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        SmallVector<Value> acc(accumulators);
        issueProducts(acc, rem(step, 2), rem(step, c.stages));
        // This warpgroup's products of step s - 1 are done; the barrier
        // then frees formed stage (s + 1) % 2 for every warpgroup, makes
        // step s + 1's copies visible and frees staged stage s % stages
        // ((s - 1) % stages with the weights in place).
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
        NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 2);
        gpu::BarrierOp::create(b, loc);
        Value refill = add(step, ahead);
        emitCpAsyncStepCopies(b, loc, refill, steps, rem(refill, c.stages),
                              copy);
        Value next = add(step, 1);
        emitIfBelow(b, loc, next, steps, [&] {
          waitForRows(next);
          formTiles(rem(next, c.stages),
                    emitFcProductStep(b, loc, *fc, blade, next, kTiles),
                    rem(next, 2));
          emitAsyncProxyFence(b, loc);
        });
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, acc);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return SmallVector<Value>(loop.getResults());
}

LogicalResult WgmmaFcProductEmitter::emit(const FcProductGemm &fcGemm,
                                          ElementEpilogue epilogue) {
  fc = &fcGemm;
  Value x = io.getOperandBuffer(0), y = io.getOperandBuffer(1),
        w = io.getOperandBuffer(2);
  if (!x || !y || !w)
    return emitError(loc, "the wgmma fc_product reads x, y and the weights "
                          "from buffers");
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warpgroup = div(threadId, 128);
  // Row tiles outermost where blades are many: measured on an H100, FCGP
  // Cl(3,0) (8 blades) 1.08 against 1.30 ms in TF32, while Cl(2,0) (4
  // blades, whose x and y sweeps are half as many) was 6% slower with
  // cp.async; with x and y by TMA, rows outermost pays for Cl(2,0) too
  // (fc_product 0.216 against 0.250 ms on an H200).
  block = fcPlan.tmaRows || fc->slotsOfBlade.size() >= kRowsOuterMinBlades
              ? emitGemmBlockPositionRowsOuter(b, loc, plan)
              : emitGemmBlockPosition(b, loc, plan);
  blade = block.batch.front();
  kTiles = llvm::divideCeil(p.k, c.tileK);
  zeroSign = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));

  // Staged: an x and a y tile per term, laid out like the formed A, and the
  // weights' [K][N] tile.
  StagedOperand xTile;
  xTile.rows = c.tileM;
  xTile.columns = c.tileK;
  xTile.globalRows = p.m;
  xTile.globalColumns = p.k;
  xTile.asyncCopy = plan.asyncCopyA;
  // TMA boxes land unswizzled (the forming reads do not conflict).
  if (!fcPlan.tmaRows)
    xTile.swizzle = getRowSwizzle(rowBytes(), /*readByLdmatrix=*/true);
  for (int64_t t = 0; t < fc->termsPerSlot; ++t)
    for (auto [tiles, global] :
         {std::pair{&lhsTiles, x}, std::pair{&rhsTiles, y}}) {
      StagedOperand tile = xTile;
      tile.global = global;
      tile.buffer = io.allocateWorkgroupBuffer(
          b, loc, {c.stages, tile.rows, tile.columns}, p.elementType,
          kWgmmaTileAlignment);
      tiles->push_back(tile);
    }
  // The weights' tile as stored: [tileK][tileN], or K-major [tileN][tileK]
  // laid out like the formed tiles.
  weightsInPlace = p.transposeB;
  weights.rows = weightsInPlace ? c.tileN : c.tileK;
  weights.columns = weightsInPlace ? c.tileK : c.tileN;
  weights.global = w;
  weights.globalRows = weightsInPlace ? p.n : p.k;
  weights.globalColumns = weightsInPlace ? p.k : p.n;
  weights.asyncCopy = plan.asyncCopyB;
  weights.swizzle = getRowSwizzle(weights.columns * 4, /*readByLdmatrix=*/true);
  weights.buffer = io.allocateWorkgroupBuffer(
      b, loc, {c.stages, weights.rows, weights.columns}, p.elementType,
      kWgmmaTileAlignment);
  aHigh = allocateFormedTile(c.tileM);
  if (!weightsInPlace)
    wHigh = allocateFormedTile(c.tileN);
  if (plan.precision == GemmPrecision::Tf32x3) {
    aLow = allocateFormedTile(c.tileM);
    wLow = allocateFormedTile(c.tileN);
  }

  if (fcPlan.tmaRows && failed(setUpTensorMaps()))
    return failure();

  Value steps = emitFcProductStepCount(b, loc, *fc, blade, kTiles);
  Value zero = LLVM::ZeroOp::create(
      b, loc, getWgmmaAccumulatorType(b.getContext(), c.tileN));
  SmallVector<Value> accumulators = fcPlan.getFormedTileSets() == 2
                                        ? emitOverlappedLoop(steps, zero)
                                        : emitSerialLoop(steps, zero);
  // Only empty groups can be pending here; leave none behind.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  emitWgmmaEpilogue(b, loc, plan, block, threadId, accumulators, epilogue);
  return success();
}

LogicalResult mlir::uta::emitWgmmaFcProduct(OpBuilder &b, Location loc,
                                            const FcProductPlan &plan,
                                            const FcProductGemm &fc,
                                            KernelIO &io,
                                            ElementEpilogue epilogue) {
  assert(!fc.gated && "only the warp-specialised schedule reads a gate");
  return WgmmaFcProductEmitter(b, loc, plan, io).emit(fc, epilogue);
}
