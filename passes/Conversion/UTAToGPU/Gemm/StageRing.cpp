//===- StageRing.cpp - A ring of shared-memory stages ---------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/Gemm/WarpSpecialisation.h"
#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

Value StageRing::getLanded(Value slot) {
  return getStageMbarrier(b, loc, landed, add(slot, layout.firstMbarrier));
}

void StageRing::emitAcquire(Value slot) {
  emitNamedBarrierWait(b, loc, getEmptyBarrier(slot), layout.emptyThreads);
}

Value StageRing::emitExpectBytes(Value slot, int64_t bytes) {
  Value barrier = getLanded(slot);
  emitMbarrierArriveExpectBytes(b, loc, barrier, index(bytes));
  return barrier;
}

void StageRing::emitWaitLanded(Value slot, Value use) {
  emitMbarrierWaitForUse(b, loc, getLanded(slot), use, layout.slots);
}

void StageRing::emitHandOn(Value slot) {
  assert(layout.firstFullBarrier && "a ring of the mbarrier flavour");
  emitNamedBarrierArrive(b, loc, getFullBarrier(slot), layout.fullThreads);
}

void StageRing::emitWaitHandedOn(Value slot) {
  assert(layout.firstFullBarrier && "a ring of the mbarrier flavour");
  emitNamedBarrierWait(b, loc, getFullBarrier(slot), layout.fullThreads);
}

void StageRing::emitRelease(Value slot) {
  emitNamedBarrierArrive(b, loc, getEmptyBarrier(slot), layout.emptyThreads);
}

void StageRing::emitDrain(int64_t uses) {
  for (int64_t use = std::max<int64_t>(0, uses - layout.slots); use < uses;
       ++use)
    emitAcquire(index(use % layout.slots));
}

void StageRing::emitDrain(Value uses) {
  int64_t slots = layout.slots;
  Value hasMore = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, uses,
                                        index(slots));
  Value first = arith::SelectOp::create(
      b, loc, hasMore,
      arith::SubIOp::create(b, loc, uses, index(slots)).getResult(), index(0));
  auto loop = scf::ForOp::create(b, loc, first, uses, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  emitAcquire(getSlot(loop.getInductionVar()));
}

void mlir::uta::emitCpAsyncStepCopies(
    OpBuilder &b, Location loc, Value step, Value steps, Value stage,
    function_ref<void(Value, Value)> copyStep) {
  emitIfBelow(b, loc, step, steps, [&] { copyStep(step, stage); });
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

SmallVector<Value> mlir::uta::emitCpAsyncMainLoop(
    OpBuilder &b, Location loc, const CpAsyncRing &ring, Value steps,
    ValueRange init, function_ref<void(Value, Value)> copyStep,
    function_ref<void(Value, Value, SmallVectorImpl<Value> &)> consumeStep) {
  IndexMath math(b, loc);
  for (int64_t s = 0; s < ring.ahead; ++s)
    emitCpAsyncStepCopies(b, loc, math.index(s), steps, math.index(s),
                          copyStep);
  auto loop = scf::ForOp::create(
      b, loc, math.index(0), steps, math.index(1), init,
      [&](OpBuilder &nb, Location, Value step, ValueRange iterArgs) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        NVVM::CpAsyncWaitGroupOp::create(b, loc, ring.ahead - 1);
        if (ring.fenceAsyncProxy)
          emitAsyncProxyFence(b, loc);
        gpu::BarrierOp::create(b, loc);
        Value next = math.add(step, ring.ahead);
        emitCpAsyncStepCopies(b, loc, next, steps, math.rem(next, ring.stages),
                              copyStep);
        SmallVector<Value> values(iterArgs);
        consumeStep(step, math.rem(step, ring.stages), values);
        scf::YieldOp::create(b, loc, values);
      });
  return SmallVector<Value>(loop.getResults());
}
