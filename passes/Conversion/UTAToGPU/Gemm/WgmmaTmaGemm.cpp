//===- WgmmaTmaGemm.cpp - The warp-specialised Hopper GEMM (sm_90a) -------===//
//
// Hopper's GEMM as its hardware intends: the tensor memory accelerator
// copies the tiles, barriers order the pipeline, and the warpgroups split
// into roles.
//
// A block is one producer warpgroup (threads 0-127) and warpsM consumer
// warpgroups; consumer w computes rows [w * tileM / warpsM, ...) of the
// tileM x tileN tile in 64-row slabs, each one wgmma accumulator (see
// Wgmma.h). Shared memory holds `stages` A tiles [tileM][tileK] and B tiles
// [tileN][tileK] (both K-contiguous) of 128-byte rows, which the tensor
// maps fill with the 128-byte swizzle the wgmma descriptors describe.
//
// Step s uses stage s % stages. The producer's first thread expects the
// bytes of both boxes on the stage's mbarrier and issues them; its first
// warp waits for that mbarrier phase and hands the stage on. In TF32 and
// 3xTF32 each consumer loads its A fragments into registers and issues
// wgmmas with A in registers. Plain TF32 rounds them there, and the tensor
// cores read B as it landed, truncated to TF32. (Rounding B in place cost
// the producer's shared-memory reads and writes of every B tile: 0.469
// against 0.364 ms at 4096^3 on an H100.) 3xTF32 splits A into high parts
// and remainders in registers, and the whole producer warpgroup writes the
// remainders of each landed B tile into a tile of their own, two steps
// behind the copies (B's high parts are read where they landed). Splitting
// A in registers instead of in shared memory (one tile's reads and writes
// by the producer, and the wgmmas' reads of two A tiles per step) made
// 4096^3 8% faster (H200: 1.154 -> 1.063 ms with four stages, which the
// remainders of A no longer take).
//
// Between the roles the pipeline runs on named barriers (bar.sync /
// bar.arrive), two per stage: `full` (the producers arrive, the consumers
// wait) and `empty` (the consumers arrive once their products of the stage
// are complete, the producer's first warp waits before refilling it). In
// 16 bits a consumer keeps one group of wgmmas in flight: step s issues
// its products, then waits until only they are pending, which completes
// step s - 1 and releases its stage. Named barriers rather
// than mbarriers because ptxas serializes every wgmma of a loop that waits
// on or arrives at an mbarrier while a group is in flight (C7514: the
// bf16 8192^3 kernel ran 3% slower for it). 3xTF32 waits for each step's
// products, which it adds in f32, loading the next step's A fragments
// while they run. Plain TF32 keeps a group in flight too,
// on A registers of each step's own (emitRegisterAStepLoop), each held
// after the wait that completes its products (emitRegisterAHold).
//
// The producer needs few registers and the consumers' accumulators many:
// setmaxnreg moves them (the kernel's maximum block size caps the
// registers at entry, which setmaxnreg needs). The epilogue runs on the
// accumulators as the wgmma schedule's does, staged through the tiles'
// shared memory where it can (emitStagedWgmmaEpilogue).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/Gemm/WarpSpecialisation.h"
#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

class WgmmaTmaGemmEmitter : GemmScheduleEmitter {
public:
  using GemmScheduleEmitter::GemmScheduleEmitter;

  LogicalResult emit(ElementEpilogue epilogue);

private:
  /// The tensor maps, tiles and mbarriers; initializes the mbarriers.
  LogicalResult setUp();
  /// The producer warpgroup's loop: copies run `getLag()` steps ahead of
  /// the hand-over of the landed (and, 3xTF32, split) stages. Step s's
  /// copies wait for the release of step s - stages, which the consumers
  /// give once step s - stages + inFlight is handed over: the lag is at
  /// most stages - inFlight.
  void emitProducer();
  /// Waits for step `step`'s stage to be free (the first warp) and issues
  /// the boxes of A and B into it (the first thread).
  void emitCopies(Value step);
  /// Waits for step `step`'s tiles to land, splits B (3xTF32) and hands
  /// the stage to the consumers.
  void emitHandOver(Value step);
  /// A consumer warpgroup: the K loop on the accumulators, then the
  /// epilogue.
  void emitConsumer(ElementEpilogue epilogue);
  /// 16 bits and plain TF32: waits for step `step`'s stage, issues its
  /// wgmmas on `acc` (ignoring acc's values where `ignoreAcc`); plain TF32
  /// returns the A registers they read in `issued`.
  void emitProducts(Value step, SmallVectorImpl<Value> &acc, bool ignoreAcc,
                    SmallVectorImpl<Tf32Fragment> *issued = nullptr);
  /// TF32, 3xTF32: this consumer's A fragments of `stage` as they landed.
  SmallVector<Tf32Fragment> loadAFragments(Value stage);
  /// Plain TF32's K loop (A in registers, a group in flight), returning
  /// the accumulators.
  SmallVector<Value> emitRegisterAConsumerLoop();
  /// 3xTF32's K loop (A split in registers, each step's products complete
  /// before their f32 add; the next step's A loads while they run),
  /// returning the accumulators.
  SmallVector<Value> emitSplitConsumerLoop();
  /// The epilogue on a consumer's final accumulators.
  void emitConsumerEpilogue(ValueRange accumulators, ElementEpilogue epilogue);

  /// The stages' ring (named-barrier flavour): named barriers 1 to stages
  /// hand the landed stages on, the next `stages` release them.
  StageRingLayout getRingLayout() const {
    StageRingLayout layout;
    layout.slots = c.stages;
    layout.firstFullBarrier = 1;
    layout.firstEmptyBarrier = 1 + c.stages;
    layout.fullThreads = getForwardingThreads() + getConsumers();
    layout.emptyThreads = 32 + getConsumers();
    return layout;
  }

  /// 3xTF32: the producer splits the landed B tiles, the consumers their
  /// A fragments.
  bool isSplit() const { return plan.precision == GemmPrecision::Tf32x3; }
  /// Plain TF32: the consumers take A from registers.
  bool isRegisterA() const { return plan.precision == GemmPrecision::Tf32; }
  /// Producer threads that hand stages over: its first warp, or the whole
  /// warpgroup where it splits B.
  int64_t getForwardingThreads() const { return isSplit() ? 128 : 32; }
  int64_t getConsumers() const { return 128 * c.warpsM; }
  int64_t getLag() const {
    return isSplit() ? std::min<int64_t>(2, c.stages - 1) : c.stages - 1;
  }
  int64_t getStageBytes() const {
    return (c.tileM + c.tileN) * c.tileK * p.getElementBytes();
  }
  int64_t getSteps() const { return llvm::divideCeil(p.k, c.tileK); }
  /// The wgmma descriptor of `stage`'s tile of `rows` rows in `tiles`, from
  /// byte `offset` of it (none: its first row).
  Value getStageDescriptor(Value tiles, int64_t rows, Value stage,
                           Value offset = nullptr) {
    Value base = emitSharedAddress(b, loc, tiles);
    Value at = add(base, mul(stage, rows * c.tileK * p.getElementBytes()));
    if (offset)
      at = add(at, offset);
    return emitWgmmaDescriptor(b, loc, at);
  }
  /// A consumer's 64-row slabs, and (TF32, 3xTF32) its A fragments of a
  /// step: one per slab and K step of 8.
  int64_t getSlabs() const { return c.tileM / c.warpsM / kWgmmaSlabRows; }
  int64_t getFragments() const {
    return getSlabs() * c.tileK * 4 / kWgmmaStepBytes;
  }

  Value threadId;
  Value aMap, bMap;
  /// [stages][tileM][tileK] and [stages][tileN][tileK].
  Value aTiles, bTiles;
  /// 3xTF32: the remainders of each stage's B tile, in the same layout.
  Value bSmall;
  /// The stages, on the mbarriers of their boxes.
  std::optional<StageRing> ring;
  /// Plain TF32: the words of emitRegisterAHold (a shared-window byte
  /// address).
  Value holdWord;
};

} // namespace

/// The coordinates (innermost first) of the box of an operand stored
/// [batch..., rows, K] whose tile starts at (`row`, `k0`) of batch element
/// `batch` (one index per batch dimension).
static SmallVector<Value> getBoxCoordinates(Value k0, Value row,
                                            ArrayRef<Value> batch) {
  SmallVector<Value> coordinates{k0, row};
  coordinates.append(batch.rbegin(), batch.rend());
  return coordinates;
}

LogicalResult WgmmaTmaGemmEmitter::setUp() {
  if (1 + 2 * c.stages > kEpilogueBarrier)
    return emitError(loc, "the TMA GEMM has two named barriers per stage: at "
                          "most 7 stages");
  auto box = [&](size_t batchRank, int64_t rows) {
    SmallVector<int64_t> extents(batchRank, 1);
    extents.append({rows, c.tileK});
    return extents;
  };
  aMap = io.getOperandTensorMap(0, box(p.lhsBatchShape.size(), c.tileM),
                                kWgmmaRowBytes);
  bMap = io.getOperandTensorMap(1, box(p.rhsBatchShape.size(), c.tileN),
                                kWgmmaRowBytes);
  if (!aMap || !bMap)
    return emitError(loc, "the TMA GEMM copies its operands through tensor "
                          "maps of their buffers");
  auto allocateTiles = [&](int64_t rows) {
    return io.allocateWorkgroupBuffer(b, loc, {c.stages, rows, c.tileK},
                                      p.elementType, kWgmmaTileAlignment);
  };
  aTiles = allocateTiles(c.tileM);
  bTiles = allocateTiles(c.tileN);
  if (isSplit())
    bSmall = allocateTiles(c.tileN);
  if (isRegisterA())
    holdWord = emitRegisterAHoldWords(b, loc, io, getFragments());
  Value landed = emitStageMbarriers(b, loc, io, c.stages, threadId);
  ring.emplace(b, loc, landed, getRingLayout());
  return success();
}

void WgmmaTmaGemmEmitter::emitProducer() {
  int64_t steps = getSteps(), lag = getLag();
  emitIf(isBelow(threadId, getForwardingThreads()), [&] {
    OpBuilder::InsertionGuard guard(b);
    auto loop =
        scf::ForOp::create(b, loc, index(0), index(steps + lag), index(1));
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    // The hand-over first: the consumers' release that this step's copies
    // wait for may need it (with a group in flight they release step s
    // once step s + 1 is handed over).
    emitIf(isAtLeast(step, lag), [&] { emitHandOver(sub(step, lag)); });
    emitIf(isBelow(step, steps), [&] { emitCopies(step); });
  });
  // The first warp waits for the consumers' release of the last stages, so
  // that no named barrier is left with arrivals when the block exits.
  emitIf(isBelow(threadId, 32), [&] { ring->emitDrain(steps); });
}

void WgmmaTmaGemmEmitter::emitCopies(Value step) {
  Value stage = ring->getSlot(step);
  // The stage's last use (step - stages) must be complete.
  emitIf(arith::AndIOp::create(b, loc, isBelow(threadId, 32),
                               isAtLeast(step, c.stages)),
         [&] { ring->emitAcquire(stage); });
  emitIf(isBelow(threadId, 1), [&] {
    Value barrier = ring->emitExpectBytes(stage, getStageBytes());
    int64_t bytes = p.getElementBytes();
    Value k0 = mul(step, c.tileK);
    Value aTile = emitSharedPointer(b, loc, aTiles,
                                    mul(stage, c.tileM * c.tileK * bytes));
    emitTensorMapCopy(b, loc, aTile, aMap,
                      getBoxCoordinates(k0, block.row, block.lhsBatch),
                      barrier);
    Value bTile = emitSharedPointer(b, loc, bTiles,
                                    mul(stage, c.tileN * c.tileK * bytes));
    emitTensorMapCopy(b, loc, bTile, bMap,
                      getBoxCoordinates(k0, block.column, block.rhsBatch),
                      barrier);
  });
}

void WgmmaTmaGemmEmitter::emitHandOver(Value step) {
  Value stage = ring->getSlot(step);
  ring->emitWaitLanded(stage, step);
  if (isSplit()) {
    emitTf32SplitOrRound(b, loc, bTiles, stage, bSmall, threadId, 128);
    // The consumers' wgmmas read the rewritten tiles through the async
    // proxy.
    emitAsyncProxyFence(b, loc);
  }
  ring->emitHandOn(stage);
}

void WgmmaTmaGemmEmitter::emitProducts(Value step, SmallVectorImpl<Value> &acc,
                                       bool ignoreAcc,
                                       SmallVectorImpl<Tf32Fragment> *issued) {
  Value stage = ring->getSlot(step);
  ring->emitWaitHandedOn(stage);
  int64_t bytes = p.getElementBytes();
  Value consumer = sub(div(threadId, 128), 1);
  // This warpgroup's first row of the A tile, in bytes. One op per
  // statement: the IR must not depend on argument evaluation order.
  Value slabOffset = mul(consumer, c.tileM / c.warpsM * kWgmmaRowBytes);
  WgmmaStepOperands operands;
  operands.bHigh = getStageDescriptor(bTiles, c.tileN, stage);
  if (isRegisterA()) {
    operands.aFragments = loadAFragments(stage);
    for (Tf32Fragment &fragment : operands.aFragments)
      for (Value &x : fragment)
        x = emitTf32RoundForTruncation(b, loc, x);
  } else {
    operands.aHigh = getStageDescriptor(aTiles, c.tileM, stage, slabOffset);
  }
  emitWgmmaStep(b, loc, acc, operands, kWgmmaRowBytes,
                c.tileK * bytes / kWgmmaStepBytes, p.elementType, ignoreAcc);
  if (issued)
    *issued = std::move(operands.aFragments);
}

SmallVector<Value> WgmmaTmaGemmEmitter::emitRegisterAConsumerLoop() {
  Value zero = LLVM::ZeroOp::create(
      b, loc, getWgmmaAccumulatorType(b.getContext(), c.tileN));
  int64_t steps = getSteps();
  SmallVector<Tf32Fragment> lastIssued;
  SmallVector<Value> acc = emitRegisterAStepLoop(
      b, loc, index(steps), SmallVector<Value>(getSlabs(), zero),
      getFragments(),
      [&](Value step, ValueRange state, ArrayRef<Tf32Fragment> held,
          SmallVectorImpl<Tf32Fragment> &issued) {
        SmallVector<Value> sums(state);
        emitProducts(step, sums, /*ignoreAcc=*/false, &issued);
        // Step s - 1's products complete (their A registers held until
        // then), then their stage is refilled.
        emitRegisterAHold(b, loc, /*inFlight=*/1, held, holdWord);
        emitIf(isAtLeast(step, 1),
               [&] { ring->emitRelease(ring->getSlot(sub(step, 1))); });
        return sums;
      },
      lastIssued);
  emitRegisterAHold(b, loc, /*inFlight=*/0, lastIssued, holdWord);
  ring->emitRelease(index((steps - 1) % c.stages));
  return acc;
}

SmallVector<Value> WgmmaTmaGemmEmitter::emitSplitConsumerLoop() {
  auto accumulatorType = getWgmmaAccumulatorType(b.getContext(), c.tileN);
  Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType);
  int64_t steps = getSteps(), slabs = getSlabs();
  // Step `step`'s A fragments as they landed, once its stage is full.
  auto load = [&](Value step) {
    Value stage = ring->getSlot(step);
    ring->emitWaitHandedOn(stage);
    SmallVector<Value> values;
    for (const Tf32Fragment &fragment : loadAFragments(stage))
      llvm::append_range(values, fragment);
    return values;
  };
  SmallVector<Value> initial(slabs, zero);
  llvm::append_range(initial, load(index(0)));
  auto loop =
      scf::ForOp::create(b, loc, index(0), index(steps), index(1), initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  Value stage = ring->getSlot(step);
  SmallVector<Value> acc(loop.getRegionIterArgs().take_front(slabs));
  ValueRange landed = loop.getRegionIterArgs().drop_front(slabs);
  WgmmaStepOperands operands;
  for (int64_t f = 0; f < getFragments(); ++f) {
    Tf32Fragment high, low;
    for (Value x : landed.slice(4 * f, 4)) {
      high.push_back(emitTf32Round(b, loc, x));
      low.push_back(arith::SubFOp::create(b, loc, x, high.back()));
    }
    operands.aFragments.push_back(std::move(high));
    operands.aLowFragments.push_back(std::move(low));
  }
  operands.bHigh = getStageDescriptor(bTiles, c.tileN, stage);
  operands.bLow = getStageDescriptor(bSmall, c.tileN, stage);
  // Fresh accumulators (the step's first product ignores their values).
  Value undefined = LLVM::UndefOp::create(b, loc, accumulatorType);
  SmallVector<Value> part(slabs, undefined);
  emitWgmmaStep(b, loc, part, operands, kWgmmaRowBytes,
                c.tileK * 4 / kWgmmaStepBytes, p.elementType);
  // The next step's fragments load while the products run.
  Value next = add(step, 1);
  auto prefetch =
      scf::IfOp::create(b, loc, landed.getTypes(), isBelow(next, steps),
                        /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard branch(b);
    b.setInsertionPointToStart(prefetch.thenBlock());
    scf::YieldOp::create(b, loc, load(next));
    b.setInsertionPointToStart(prefetch.elseBlock());
    scf::YieldOp::create(b, loc, landed);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  ring->emitRelease(stage);
  for (auto [sum, tile] : llvm::zip_equal(acc, part))
    sum = emitWgmmaAccumulatorSum(b, loc, sum, tile);
  llvm::append_range(acc, prefetch.getResults());
  scf::YieldOp::create(b, loc, acc);
  return SmallVector<Value>(loop.getResults().take_front(slabs));
}

SmallVector<Tf32Fragment> WgmmaTmaGemmEmitter::loadAFragments(Value stage) {
  Value consumerThread = sub(threadId, 128);
  Value firstRow = mul(div(consumerThread, 128), c.tileM / c.warpsM);
  return emitLoadTf32Fragments(b, loc, aTiles, stage, firstRow,
                               rem(consumerThread, 128), getSlabs());
}

void WgmmaTmaGemmEmitter::emitConsumer(ElementEpilogue epilogue) {
  if (isRegisterA()) {
    emitConsumerEpilogue(emitRegisterAConsumerLoop(), epilogue);
    return;
  }
  if (isSplit()) {
    emitConsumerEpilogue(emitSplitConsumerLoop(), epilogue);
    return;
  }

  // 16 bits: one group of products stays in flight. Step s issues its
  // products, then waits for step s - 1's and releases its stage.
  auto accumulatorType = getWgmmaAccumulatorType(b.getContext(), c.tileN);
  int64_t slabs = getSlabs();
  int64_t steps = getSteps();
  auto emitStep = [&](Value step, SmallVectorImpl<Value> &acc, bool first) {
    emitProducts(step, acc, first);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    if (!first)
      ring->emitRelease(ring->getSlot(sub(step, 1)));
  };
  // Step 0 stands before the loop, so that the loop has no first-step
  // branch; its products ignore the accumulators, which are then left
  // undefined (no moves into them before the first wgmma).
  SmallVector<Value> first(slabs,
                           LLVM::UndefOp::create(b, loc, accumulatorType));
  emitStep(index(0), first, /*first=*/true);
  auto loop = scf::ForOp::create(
      b, loc, index(1), index(steps), index(1), first,
      [&](OpBuilder &nb, Location, Value step, ValueRange accumulators) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        SmallVector<Value> acc(accumulators);
        emitStep(step, acc, /*first=*/false);
        scf::YieldOp::create(b, loc, acc);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  ring->emitRelease(index((steps - 1) % c.stages));
  emitConsumerEpilogue(loop.getResults(), epilogue);
}

void WgmmaTmaGemmEmitter::emitConsumerEpilogue(ValueRange accumulators,
                                               ElementEpilogue epilogue) {
  // The accumulators staged where the tiles were (not the mbarriers after
  // them), for vector stores; a named barrier of the consumers alone.
  Value consumerThread = sub(threadId, 128);
  int64_t tileBytes =
      c.stages * (getStageBytes() +
                  (isSplit() ? c.tileN * c.tileK * p.getElementBytes() : 0));
  int64_t stagingBytes = c.tileM * (c.tileN + kStagingRowPadding) * 4;
  auto barrier = [&] {
    emitNamedBarrierWait(b, loc, index(kEpilogueBarrier), getConsumers());
  };
  if (stagingBytes <= tileBytes &&
      succeeded(emitStagedWgmmaEpilogue(b, loc, plan, block, io, aTiles,
                                        consumerThread, getConsumers(), barrier,
                                        accumulators, epilogue)))
    return;
  emitWgmmaEpilogue(b, loc, plan, block, consumerThread, accumulators,
                    epilogue);
}

LogicalResult WgmmaTmaGemmEmitter::emit(ElementEpilogue epilogue) {
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  block = emitGemmBlockPosition(b, loc, plan);
  if (failed(setUp()))
    return failure();
  emitProducerConsumerRoles(
      b, loc, threadId, c.getNumThreads(),
      isSplit() ? kRewritingProducerRegisters : kCopyingProducerRegisters,
      [&] { emitProducer(); }, [&] { emitConsumer(epilogue); });
  return success();
}

LogicalResult mlir::uta::emitWgmmaTmaGemm(OpBuilder &b, Location loc,
                                          const GemmPlan &plan, KernelIO &io,
                                          ElementEpilogue epilogue) {
  return WgmmaTmaGemmEmitter(b, loc, plan, io).emit(epilogue);
}
