//===- WgmmaTmaFcProduct.cpp - fc_product, warp-specialised (sm_90a) ------===//
//
// clifford.fc_product's per-blade GEMMs (z_k = sum over the slots of k of
// the slot's signed pair products @ w[path], see WgmmaFcProduct.cpp) on the
// warp-specialised structure of the TMA GEMM, with the A operand formed in
// registers: the pair products never touch shared memory.
//
// A block is one producer warpgroup (threads 0-127) and warpsM consumer
// warpgroups, each computing 64-row slabs of a tileM x tileN tile of one
// result blade. The weights are K-major ([P, Fout, Fin], made so by
// uta-tensor-core-layouts). Two rings of stages, each slot completing on
// an mbarrier as bytes of TMA boxes with the 128-byte swizzle:
//   - term stages (`stages` of them): the x and the y tile ([tileM][tileK])
//     of one term of a slot, so that a slot of any number of terms streams
//     through the same ring (no slot is split for want of stage space);
//   - weight stages (the config's bStages): the [tileN][tileK] tile of
//     the step's path, which wgmma reads as its B operand where it lands.
// The producer's first warp walks the steps (plain TF32: K tile by K tile,
// every slot of a K tile before the next; 3xTF32: slot by slot) and their
// present terms in order: it waits for a slot's release (a named barrier
// the consumers arrive at), and its first thread expects the bytes and
// issues the boxes. For each step a consumer waits for each term's slot
// (the mbarrier's phase), loads its x and y fragments from the swizzled
// tiles (emitLoadTf32Fragments: no bank conflicts), releases the slot and
// sums sign * x * y in registers; then it rounds the sums to TF32 and
// issues the step's wgmmas with A in registers on the weights' slot. Plain
// TF32 leaves them in flight: the wait after them completes the step
// before, whose weights it then releases; the loop runs two steps per
// iteration on A registers of each step's own, held until that wait
// (emitRegisterAStepLoop, emitRegisterAHold).
// 3xTF32 splits the sums into high parts and remainders in registers; the
// producer's last two warps write the remainders w - tf32(w) of each landed
// weight tile into a tile of their own and hand it on through a named barrier;
// each step's three products (small A x high W, high A x small W, high A x high
// W) go into fresh accumulators, added to the running ones in round-to-nearest
// f32. Plain TF32 reads the weights as landed, TF32 by truncation, as
// WgmmaFcProduct.cpp does with K-major weights. The epilogue is staged
// through the stages' memory (emitStagedWgmmaEpilogue).
// A gated fc_product (operand 3, gate [B, Fin]) streams the gate tile of
// each K tile through the term ring too, into a slot's x tile, ahead of the
// first step that reads that K tile (every step slot by slot; once per K
// tile with K tiles outer); the consumers keep its fragments in registers
// for the K tile's steps and scale each step's sums by them before the
// rounding.
// With GemmPlan::clusterBlocks the kernel is launched in clusters, the
// column tiles of one row tile and blade together; its blocks share
// nothing, the GPU just runs them at the same time.
// fc_product_weight_gradient runs the same kernel with the operands'
// roles moved (FcPairOperands): x and y batch-contiguous, M the input
// features and K the batch, B the cotangent's blade of each slot
// ([2^n, Fout, B]), a block per (path, row tile, column tile).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/FcProduct/GradeNormExchange.h"
#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/Gemm/WarpSpecialisation.h"
#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

/// The producer's threads that split the weights (its last two warps).
static constexpr int64_t kSplittingThreads = 64;

namespace {

class WgmmaTmaFcProductEmitter : GemmScheduleEmitter {
public:
  /// `operands`: where x, y and the K-major B are ([M][K] tiles).
  WgmmaTmaFcProductEmitter(OpBuilder &b, Location loc,
                           const FcProductPlan &plan, KernelIO &io,
                           FcPairOperands operands)
      : GemmScheduleEmitter(b, loc, plan.gemm, io), fcPlan(plan),
        operands(operands) {}

  LogicalResult emit(const FcProductGemm &fc, ElementEpilogue epilogue,
                     const FcProductGradeNorm *gradeNorm);

private:
  const FcProductPlan &fcPlan;
  FcPairOperands operands;
  /// The tensor maps, tiles and mbarriers.
  LogicalResult setUp();
  /// The producer's first warp: every step's copies in order, then the
  /// waits for the last releases.
  void emitCopies();
  /// Fills the term slot of running index `unit` once its last use is
  /// released: its first thread expects `bytes` and issues the boxes of
  /// `copyBoxes` (byte offset of the slot's tiles, mbarrier).
  void emitTermUnitCopy(Value unit, int64_t bytes,
                        function_ref<void(Value, Value)> copyBoxes);
  /// Copies term `term` of step `info` into the term slot of running
  /// index `unit`, after its last use is released.
  void emitTermCopy(const FcProductStep &info, int64_t term, Value k0,
                    Value unit);
  /// 3xTF32: the producer's splitting warps write each step's weight
  /// remainders and hand them on.
  void emitWeightSplits();
  /// A consumer warpgroup: the steps on the accumulators, then the
  /// epilogue.
  void emitConsumer(ElementEpilogue epilogue);
  /// Adds sign * x * y of term `term` of step `info`, whose tiles are in
  /// the term slot of running index `unit`, to `sums` (or sets them, for
  /// the first term), releasing the slot.
  void addTermProducts(const FcProductStep &info, int64_t term, Value unit,
                       SmallVectorImpl<Tf32Fragment> &sums);
  /// Takes the term slot of running index `unit` once it has landed: this
  /// consumer thread's A fragments of its slabs of each of `tiles` (xTiles,
  /// yTiles) there, then the slot's release.
  SmallVector<SmallVector<Tf32Fragment>> emitTakeTermUnit(Value unit,
                                                          ValueRange tiles);
  /// The steps that share one K tile's gates (a gated fc_product): a K
  /// tile's slots where K tiles run outer, else one.
  Value getGateSteps() { return fcPlan.kTilesOuter ? slots : index(1); }
  /// Whether `step` is the first of its group of getGateSteps() steps,
  /// which reads the group's gates.
  Value startsGateGroup(Value step) {
    return isBelow(arith::RemUIOp::create(b, loc, step, getGateSteps()), 1);
  }
  /// Copies the gate tile [tileM][tileK] of K tile `k0` into the x tile of
  /// the term slot of running index `unit`, after its last use is released.
  void emitGateCopy(Value k0, Value unit);
  /// Step `step` on `state` (the accumulators, the running term unit, then
  /// for a gated fc_product the gate fragments of the step's group): its
  /// terms' sums, scaled by the gates, then emitProducts with `held` and
  /// `issued` (TF32: the previous step's A registers to hold, and this
  /// step's). The first step of a group of getGateSteps() steps first takes
  /// the group's gates from the next term unit. Returns the new state.
  SmallVector<Value> emitStep(Value step, ValueRange state,
                              ArrayRef<Tf32Fragment> held,
                              SmallVectorImpl<Tf32Fragment> &issued);
  /// Rounds the sums to TF32 (3xTF32: splits them into high parts and
  /// remainders), waits for `step`'s weights (3xTF32: their remainders)
  /// and issues the step's wgmmas with A in registers on `acc`.
  ///   - TF32: one group stays in flight. Waits for the previous step's
  ///     products, holds their A registers `held` (emitRegisterAHold) and
  ///     releases their weights; `issued` gets this step's A registers.
  ///   - 3xTF32: into fresh accumulators, then added to `acc` once complete
  ///     (the adds leave no group in flight); releases the weights.
  void emitProducts(Value step, ArrayRef<Tf32Fragment> sums,
                    SmallVectorImpl<Value> &acc, ArrayRef<Tf32Fragment> held,
                    SmallVectorImpl<Tf32Fragment> &issued);

  /// The index, slot by slot (slot * kTiles + K tile, the order of
  /// emitFcProductStep's tables), of the step the ring runs as `step`: the
  /// same, or with GemmPlan::kTilesOuter, step's slot and K tile where
  /// every slot of a K tile runs before the next K tile.
  Value getSlotMajorStep(Value step) {
    if (!fcPlan.kTilesOuter)
      return step;
    Value slot = arith::RemUIOp::create(b, loc, step, slots);
    Value kTile = arith::DivUIOp::create(b, loc, step, slots);
    return add(mul(slot, kTiles), kTile);
  }
  /// The two rings, the terms' (a unit per term, its x and y tiles) and the
  /// weights' (a use per step), on consecutive mbarriers; consumers wait for
  /// the landed slots themselves. Named barriers: the releases of the term
  /// slots, then of the weight slots (consumers arrive, the copying warp
  /// waits), then, 3xTF32, the hand-over of each weight slot's remainders
  /// (splitting warps arrive, consumers wait).
  StageRingLayout getTermRingLayout() const {
    StageRingLayout layout;
    layout.slots = c.stages;
    layout.firstEmptyBarrier = 1;
    layout.emptyThreads = 32 + getConsumers();
    return layout;
  }
  StageRingLayout getWeightRingLayout() const {
    StageRingLayout layout;
    layout.slots = c.bStages;
    layout.firstMbarrier = c.stages;
    layout.firstEmptyBarrier = 1 + c.stages;
    layout.firstFullBarrier = 1 + c.stages + c.bStages;
    layout.emptyThreads = 32 + getConsumers();
    layout.fullThreads = kSplittingThreads + getConsumers();
    return layout;
  }
  int64_t getConsumers() const { return 128 * c.warpsM; }
  bool isSplit() const { return plan.precision == GemmPrecision::Tf32x3; }
  int64_t getTermBytes() const { return c.tileM * kWgmmaRowBytes; }
  int64_t getWeightBytes() const { return c.tileN * kWgmmaRowBytes; }
  int64_t getSlabs() const { return c.tileM / c.warpsM / kWgmmaSlabRows; }
  /// The A fragments of a step: one per slab and K step of 8.
  int64_t getFragments() const {
    return getSlabs() * c.tileK * 4 / kWgmmaStepBytes;
  }

  Value isPresent(Value sign) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, sign,
                                 zeroSign);
  }
  /// Runs `body` where term `term` of `info` is present (every first term
  /// is), yielding its results, else passes `values` through.
  SmallVector<Value> emitIfPresent(const FcProductStep &info, int64_t term,
                                   ValueRange values,
                                   function_ref<SmallVector<Value>()> body);

  const FcProductGemm *fc = nullptr;
  /// With a grade norm: the blocks' exchange of row sums.
  std::optional<GradeNormExchange> exchange;
  Value threadId, blade, steps, zeroSign;
  /// The first K index of the block's run of K (GemmProblem::kRuns): 0
  /// but for a weight gradient's runs of the batch.
  Value runStart;
  /// With GemmPlan::kTilesOuter, the blade's slots (steps per K tile).
  Value slots;
  int64_t kTiles = 0;
  Value xMap, yMap, wMap, gateMap;
  /// [stages][tileM][tileK] x and y tiles, [bStages][tileN]
  /// [tileK] weights and (3xTF32) their remainders.
  Value xTiles, yTiles, wTiles, wSmall;
  /// TF32: the words of emitRegisterAHold (a shared-window byte address).
  Value holdWord;
  std::optional<StageRing> termRing, weightRing;
};

} // namespace

LogicalResult WgmmaTmaFcProductEmitter::setUp() {
  // The slots' releases, and 3xTF32's hand-overs of the remainders.
  int64_t barriers = 1 + c.stages + c.bStages * (isSplit() ? 2 : 1);
  if (barriers > kEpilogueBarrier)
    return emitError(loc, "the TMA fc_product has a named barrier per term "
                          "and per weight stage (3xTF32: two per weight "
                          "stage): at most 14 in all");
  // TF32 releases a step's weights once the next step's products are
  // issued: one more weight stage must be free for those.
  assert((isSplit() || c.bStages >= 2) &&
         "TF32 keeps a step in flight: at least two weight stages");
  xMap = io.getOperandTensorMap(operands.lhs, {1, c.tileM, c.tileK},
                                kWgmmaRowBytes);
  yMap = io.getOperandTensorMap(operands.rhs, {1, c.tileM, c.tileK},
                                kWgmmaRowBytes);
  wMap =
      io.getOperandTensorMap(operands.b, {1, c.tileN, c.tileK}, kWgmmaRowBytes);
  if (fc->gated)
    gateMap = io.getOperandTensorMap(kFcProductGateOperand, {c.tileM, c.tileK},
                                     kWgmmaRowBytes);
  if (!xMap || !yMap || !wMap || (fc->gated && !gateMap))
    return emitError(loc, "the TMA fc_product copies x, y, the weights and "
                          "the gates through tensor maps of their buffers");
  auto allocateTiles = [&](int64_t slots, int64_t rows) {
    return io.allocateWorkgroupBuffer(b, loc, {slots, rows, c.tileK},
                                      p.elementType, kWgmmaTileAlignment);
  };
  xTiles = allocateTiles(c.stages, c.tileM);
  yTiles = allocateTiles(c.stages, c.tileM);
  wTiles = allocateTiles(c.bStages, c.tileN);
  if (isSplit())
    wSmall = allocateTiles(c.bStages, c.tileN);
  else
    holdWord = emitRegisterAHoldWords(b, loc, io, getFragments());
  Value landed = emitStageMbarriers(b, loc, io, c.stages + c.bStages, threadId);
  termRing.emplace(b, loc, landed, getTermRingLayout());
  weightRing.emplace(b, loc, landed, getWeightRingLayout());
  return success();
}

SmallVector<Value> WgmmaTmaFcProductEmitter::emitIfPresent(
    const FcProductStep &info, int64_t term, ValueRange values,
    function_ref<SmallVector<Value>()> body) {
  if (term == 0)
    return body();
  auto branch =
      scf::IfOp::create(b, loc, values.getTypes(), isPresent(info.sign[term]),
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  scf::YieldOp::create(b, loc, body());
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc, values);
  return SmallVector<Value>(branch.getResults());
}

void WgmmaTmaFcProductEmitter::emitTermUnitCopy(
    Value unit, int64_t bytes, function_ref<void(Value, Value)> copyBoxes) {
  Value slot = termRing->getSlot(unit);
  emitIf(isAtLeast(unit, c.stages), [&] { termRing->emitAcquire(slot); });
  emitIf(isBelow(threadId, 1), [&] {
    Value barrier = termRing->emitExpectBytes(slot, bytes);
    copyBoxes(mul(slot, getTermBytes()), barrier);
  });
}

void WgmmaTmaFcProductEmitter::emitTermCopy(const FcProductStep &info,
                                            int64_t term, Value k0,
                                            Value unit) {
  emitTermUnitCopy(unit, 2 * getTermBytes(), [&](Value offset, Value barrier) {
    // Coordinates innermost first: (k, row, blade) of [blades, M, K].
    emitTensorMapCopy(b, loc, emitSharedPointer(b, loc, xTiles, offset), xMap,
                      {k0, block.row, info.lhs[term]}, barrier);
    emitTensorMapCopy(b, loc, emitSharedPointer(b, loc, yTiles, offset), yMap,
                      {k0, block.row, info.rhs[term]}, barrier);
  });
}

void WgmmaTmaFcProductEmitter::emitGateCopy(Value k0, Value unit) {
  emitTermUnitCopy(unit, getTermBytes(), [&](Value offset, Value barrier) {
    // (k, row) of [B, Fin].
    emitTensorMapCopy(b, loc, emitSharedPointer(b, loc, xTiles, offset),
                      gateMap, {k0, block.row}, barrier);
  });
}

void WgmmaTmaFcProductEmitter::emitCopies() {
  auto loop = scf::ForOp::create(b, loc, index(0), steps, index(1),
                                 ValueRange{index(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value unit = loop.getRegionIterArgs().front();
    Value slotMajorStep = getSlotMajorStep(step);
    FcProductStep info =
        emitFcProductStep(b, loc, *fc, blade, slotMajorStep, kTiles);
    Value k0 = add(runStart, mul(rem(slotMajorStep, kTiles), c.tileK));
    // The step's weights first: its terms are then consumed in order.
    Value slot = weightRing->getSlot(step);
    emitIf(isAtLeast(step, c.bStages), [&] { weightRing->emitAcquire(slot); });
    emitIf(isBelow(threadId, 1), [&] {
      Value barrier = weightRing->emitExpectBytes(slot, getWeightBytes());
      Value destination =
          emitSharedPointer(b, loc, wTiles, mul(slot, getWeightBytes()));
      // (k, column, batch) of B [batches, N, K]: the weights of the step's
      // path, or the weight gradient's cotangent blade.
      emitTensorMapCopy(b, loc, destination, wMap,
                        {k0, block.column, info.path}, barrier);
    });
    // A group's gates before its first step's terms.
    if (fc->gated) {
      auto first =
          scf::IfOp::create(b, loc, unit.getType(), startsGateGroup(step),
                            /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      emitGateCopy(k0, unit);
      scf::YieldOp::create(b, loc, add(unit, 1));
      b.setInsertionPointToStart(first.elseBlock());
      scf::YieldOp::create(b, loc, unit);
      unit = first.getResult(0);
    }
    for (int64_t term = 0; term < fc->termsPerSlot; ++term)
      unit = emitIfPresent(info, term, unit, [&]() -> SmallVector<Value> {
               emitTermCopy(info, term, k0, unit);
               return {add(unit, 1)};
             }).front();
    scf::YieldOp::create(b, loc, unit);
  }
  termRing->emitDrain(loop.getResult(0));
  weightRing->emitDrain(steps);
}

void WgmmaTmaFcProductEmitter::emitWeightSplits() {
  Value splitter = sub(threadId, 128 - kSplittingThreads);
  auto loop = scf::ForOp::create(b, loc, index(0), steps, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  Value slot = weightRing->getSlot(step);
  weightRing->emitWaitLanded(slot, step);
  emitTf32SplitOrRound(b, loc, wTiles, slot, wSmall, splitter,
                       kSplittingThreads);
  // The consumers' wgmmas read the remainders through the async proxy.
  emitAsyncProxyFence(b, loc);
  weightRing->emitHandOn(slot);
}

SmallVector<SmallVector<Tf32Fragment>>
WgmmaTmaFcProductEmitter::emitTakeTermUnit(Value unit, ValueRange tiles) {
  Value slot = termRing->getSlot(unit);
  termRing->emitWaitLanded(slot, unit);
  Value consumerThread = sub(threadId, 128);
  Value firstRow = mul(div(consumerThread, 128), c.tileM / c.warpsM);
  Value warpgroupThread = rem(consumerThread, 128);
  SmallVector<SmallVector<Tf32Fragment>> fragments;
  for (Value tile : tiles)
    fragments.push_back(emitLoadTf32Fragments(b, loc, tile, slot, firstRow,
                                              warpgroupThread, getSlabs()));
  // The loads are performed before the arrival (bar.arrive orders them),
  // so the producer may refill the slot at once.
  termRing->emitRelease(slot);
  return fragments;
}

void WgmmaTmaFcProductEmitter::addTermProducts(
    const FcProductStep &info, int64_t term, Value unit,
    SmallVectorImpl<Tf32Fragment> &sums) {
  SmallVector<SmallVector<Tf32Fragment>> tiles =
      emitTakeTermUnit(unit, {xTiles, yTiles});
  ArrayRef<Tf32Fragment> x = tiles[0], y = tiles[1];
  Value sign = info.sign[term];
  if (sums.empty())
    sums.resize(x.size());
  for (auto [sum, xs, ys] : llvm::zip_equal(sums, x, y)) {
    if (sum.empty())
      sum.resize(xs.size());
    for (auto [s, xv, yv] : llvm::zip_equal(sum, xs, ys)) {
      Value product = arith::MulFOp::create(b, loc, xv, yv);
      product = arith::MulFOp::create(b, loc, product, sign);
      s = term == 0 ? product : arith::AddFOp::create(b, loc, s, product);
    }
  }
}

void WgmmaTmaFcProductEmitter::emitProducts(
    Value step, ArrayRef<Tf32Fragment> sums, SmallVectorImpl<Value> &acc,
    ArrayRef<Tf32Fragment> held, SmallVectorImpl<Tf32Fragment> &issued) {
  Value slot = weightRing->getSlot(step);
  if (isSplit())
    weightRing->emitWaitHandedOn(slot);
  else
    weightRing->emitWaitLanded(slot, step);
  auto descriptor = [&](Value tiles) {
    Value base = emitSharedAddress(b, loc, tiles);
    return emitWgmmaDescriptor(b, loc, add(base, mul(slot, getWeightBytes())));
  };
  WgmmaStepOperands operands;
  operands.bHigh = descriptor(wTiles);
  for (const Tf32Fragment &sum : sums) {
    Tf32Fragment high, low;
    for (Value s : sum) {
      // 3xTF32's remainders need the high parts exact; plain TF32 leaves
      // the low bits to the tensor cores, which ignore them.
      if (!isSplit()) {
        high.push_back(emitTf32RoundForTruncation(b, loc, s));
        continue;
      }
      high.push_back(emitTf32Round(b, loc, s));
      low.push_back(arith::SubFOp::create(b, loc, s, high.back()));
    }
    operands.aFragments.push_back(std::move(high));
    if (isSplit())
      operands.aLowFragments.push_back(std::move(low));
  }
  if (!isSplit()) {
    emitWgmmaStep(b, loc, acc, operands, kWgmmaRowBytes,
                  c.tileK * 4 / kWgmmaStepBytes, p.elementType);
    emitRegisterAHold(b, loc, /*inFlight=*/1, held, holdWord);
    emitIf(isAtLeast(step, 1),
           [&] { weightRing->emitRelease(weightRing->getSlot(sub(step, 1))); });
    issued = std::move(operands.aFragments);
    return;
  }
  operands.bLow = descriptor(wSmall);
  // Fresh accumulators (the step's first product ignores their values),
  // added to the running ones in round-to-nearest f32 once complete.
  Value undefined = LLVM::UndefOp::create(b, loc, acc.front().getType());
  SmallVector<Value> part(acc.size(), undefined);
  emitWgmmaStep(b, loc, part, operands, kWgmmaRowBytes,
                c.tileK * 4 / kWgmmaStepBytes, p.elementType);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  weightRing->emitRelease(slot);
  for (auto [sum, tile] : llvm::zip_equal(acc, part))
    sum = emitWgmmaAccumulatorSum(b, loc, sum, tile);
}

SmallVector<Value>
WgmmaTmaFcProductEmitter::emitStep(Value step, ValueRange state,
                                   ArrayRef<Tf32Fragment> held,
                                   SmallVectorImpl<Tf32Fragment> &issued) {
  SmallVector<Value> acc(state.take_front(getSlabs()));
  Value unit = state[getSlabs()];
  FcProductStep info =
      emitFcProductStep(b, loc, *fc, blade, getSlotMajorStep(step), kTiles);
  SmallVector<Value> gates(state.drop_front(getSlabs() + 1));
  if (fc->gated) {
    // The group's gates, landed like a term's tiles (in the slot's x tile).
    SmallVector<Value> carried{unit};
    carried.append(gates);
    auto first = scf::IfOp::create(b, loc, ValueRange(carried).getTypes(),
                                   startsGateGroup(step),
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    SmallVector<Value> loaded{add(unit, 1)};
    SmallVector<SmallVector<Tf32Fragment>> gateTile =
        emitTakeTermUnit(unit, {xTiles});
    for (const Tf32Fragment &fragment : gateTile.front())
      loaded.append(fragment.begin(), fragment.end());
    scf::YieldOp::create(b, loc, loaded);
    b.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(b, loc, carried);
    unit = first.getResult(0);
    gates.assign(std::next(first.getResults().begin()),
                 first.getResults().end());
  }
  SmallVector<Tf32Fragment> sums;
  for (int64_t term = 0; term < fc->termsPerSlot; ++term) {
    // The sums and the unit index pass through a missing term.
    SmallVector<Value> carried{unit};
    for (const Tf32Fragment &sum : sums)
      carried.append(sum.begin(), sum.end());
    SmallVector<Value> updated =
        emitIfPresent(info, term, carried, [&]() -> SmallVector<Value> {
          SmallVector<Tf32Fragment> added = sums;
          addTermProducts(info, term, unit, added);
          SmallVector<Value> results{add(unit, 1)};
          for (const Tf32Fragment &sum : added)
            results.append(sum.begin(), sum.end());
          return results;
        });
    unit = updated.front();
    // The first term sets the sums' shape; later ones keep it.
    if (sums.empty())
      sums.resize(getFragments(), Tf32Fragment(4));
    ArrayRef<Value> values = ArrayRef(updated).drop_front();
    for (Tf32Fragment &sum : sums)
      for (Value &s : sum) {
        s = values.front();
        values = values.drop_front();
      }
  }
  // Every pair product of a slot carries the same gate.
  if (fc->gated) {
    ArrayRef<Value> gate = gates;
    for (Tf32Fragment &sum : sums)
      for (Value &s : sum) {
        s = arith::MulFOp::create(b, loc, s, gate.front());
        gate = gate.drop_front();
      }
  }
  emitProducts(step, sums, acc, held, issued);
  acc.push_back(unit);
  acc.append(gates);
  return acc;
}

void WgmmaTmaFcProductEmitter::emitConsumer(ElementEpilogue epilogue) {
  Value zero = LLVM::ZeroOp::create(
      b, loc, getWgmmaAccumulatorType(b.getContext(), c.tileN));
  SmallVector<Value> initial(getSlabs(), zero);
  initial.push_back(index(0));
  // The gates, which the first step replaces.
  if (fc->gated)
    initial.append(getFragments() * 4,
                   arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f)));
  SmallVector<Value> state;
  if (isSplit()) {
    auto loop = scf::ForOp::create(b, loc, index(0), steps, index(1), initial);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Tf32Fragment> issued;
    scf::YieldOp::create(
        b, loc,
        emitStep(loop.getInductionVar(), loop.getRegionIterArgs(), {}, issued));
    state.assign(loop.getResults().begin(), loop.getResults().end());
  } else {
    SmallVector<Tf32Fragment> lastIssued;
    state = emitRegisterAStepLoop(
        b, loc, steps, initial, getFragments(),
        [&](Value step, ValueRange current, ArrayRef<Tf32Fragment> held,
            SmallVectorImpl<Tf32Fragment> &issued) {
          return emitStep(step, current, held, issued);
        },
        lastIssued);
    // The last step's products, then its weights' release (a blade
    // without slots has no steps, and nothing to release).
    emitRegisterAHold(b, loc, /*inFlight=*/0, lastIssued, holdWord);
    emitIf(isAtLeast(steps, 1), [&] {
      weightRing->emitRelease(weightRing->getSlot(sub(steps, 1)));
    });
  }
  // The accumulators staged where the tiles were (not the mbarriers after
  // them), for vector stores; a named barrier of the consumers alone.
  Value consumerThread = sub(threadId, 128);
  auto barrier = [&] {
    emitNamedBarrierWait(b, loc, index(kEpilogueBarrier), getConsumers());
  };
  ValueRange accumulators = ValueRange(state).take_front(getSlabs());
  if (canStageWgmmaTmaFcProductEpilogue(fcPlan)) {
    auto rowScales = [&](Value staging) {
      return exchange->emitRowScales(block, staging, consumerThread,
                                     getConsumers(), barrier);
    };
    LogicalResult staged = emitStagedWgmmaEpilogue(
        b, loc, plan, block, io, xTiles, consumerThread, getConsumers(),
        barrier, accumulators, epilogue,
        exchange ? function_ref<Value(Value)>(rowScales) : nullptr);
    assert(succeeded(staged) && "canStageWgmmaTmaFcProductEpilogue holds");
    (void)staged;
    return;
  }
  assert(!exchange && "a grade norm needs the staged epilogue");
  emitWgmmaEpilogue(b, loc, plan, block, consumerThread, accumulators,
                    epilogue);
}

LogicalResult
WgmmaTmaFcProductEmitter::emit(const FcProductGemm &fcGemm,
                               ElementEpilogue epilogue,
                               const FcProductGradeNorm *gradeNorm) {
  fc = &fcGemm;
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (fcPlan.clusterBlocks > 1 && !io.setClusterBlocks(fcPlan.clusterBlocks))
    return emitError(loc, "the warp-specialised fc_product runs in clusters, "
                          "which only CUDA launches");
  // The longest blocks first, and blocks of one row tile together, which
  // share the rows of x and y in L2. With a grade norm, blocks wait on
  // others of their group and place themselves by a ticket.
  Value ticket;
  if (gradeNorm) {
    exchange.emplace(b, loc, fcPlan, fcGemm, *gradeNorm, io);
    ticket = exchange->emitTicket(threadId);
  }
  // A weight gradient's runs of the batch: the blocks of one tile's runs
  // side by side, so that the longest tiles still start first; each run's
  // partial product goes to its index of the result's leading axis.
  Value run, blockIndex = ticket;
  if (p.kRuns > 1) {
    Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    run = rem(blockId, p.kRuns);
    blockIndex = div(blockId, p.kRuns);
  }
  block = emitFcProductBlockPosition(b, loc, fcPlan, fcGemm, blockIndex);
  blade = block.batch.back();
  runStart = index(0);
  if (run) {
    block.batch.insert(block.batch.begin(), run);
    runStart = mul(run, p.k);
  }
  kTiles = llvm::divideCeil(p.k, c.tileK);
  zeroSign = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  if (failed(setUp()))
    return failure();
  steps = emitFcProductStepCount(b, loc, *fc, blade, kTiles);
  if (fcPlan.kTilesOuter)
    slots = div(steps, kTiles);
  emitProducerConsumerRoles(
      b, loc, threadId, c.getNumThreads(),
      isSplit() ? kRewritingProducerRegisters : kCopyingProducerRegisters,
      [&] {
        emitIf(isBelow(threadId, 32), [&] { emitCopies(); });
        if (isSplit())
          emitIf(isAtLeast(threadId, 128 - kSplittingThreads),
                 [&] { emitWeightSplits(); });
      },
      [&] { emitConsumer(epilogue); });
  return success();
}

bool mlir::uta::canStageWgmmaTmaFcProductEpilogue(const FcProductPlan &fcPlan) {
  const GemmPlan &plan = fcPlan.gemm;
  const GemmConfig &c = plan.config;
  int64_t weightTiles = plan.precision == GemmPrecision::Tf32x3 ? 2 : 1;
  int64_t tileBytes = 2 * c.stages * c.tileM * kWgmmaRowBytes +
                      c.bStages * weightTiles * c.tileN * kWgmmaRowBytes;
  int64_t stagingBytes = c.tileM * (c.tileN + kStagingRowPadding) * 4;
  return stagingBytes <= tileBytes &&
         canStageWgmmaEpilogue(plan, 128 * c.warpsM);
}

LogicalResult mlir::uta::emitWgmmaTmaFcProduct(
    OpBuilder &b, Location loc, const FcProductPlan &plan,
    const FcProductGemm &fc, KernelIO &io, ElementEpilogue epilogue,
    const FcProductGradeNorm *gradeNorm) {
  return WgmmaTmaFcProductEmitter(b, loc, plan, io,
                                  {/*lhs=*/0, /*rhs=*/1, /*b=*/2})
      .emit(fc, epilogue, gradeNorm);
}

LogicalResult mlir::uta::emitWgmmaTmaFcProductWeightGradient(
    OpBuilder &b, Location loc, const FcProductPlan &plan,
    const FcProductGemm &fc, KernelIO &io, ElementEpilogue epilogue) {
  return WgmmaTmaFcProductEmitter(b, loc, plan, io,
                                  {/*lhs=*/1, /*rhs=*/2, /*b=*/0})
      .emit(fc, epilogue, /*gradeNorm=*/nullptr);
}
