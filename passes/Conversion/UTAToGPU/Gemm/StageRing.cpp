//===- StageRing.cpp - A ring of shared-memory stages ---------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/Gemm/WarpSpecialisation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
