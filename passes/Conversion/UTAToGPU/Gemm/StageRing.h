//===- StageRing.h - A ring of shared-memory stages -------------*- C++ -*-===//
//
// The pipelines of the warp-specialised schedules pass tiles from a
// producer to consumers through rings of shared-memory stages. Use u of a
// ring of `slots` stages is slot u % slots. The producer's copies of a use
// complete as bytes on the slot's mbarrier (`landed`); consumers wait for
// that phase themselves (the mbarrier flavour), or producer threads do and
// then hand the slot on at its `full` named barrier, where the consumers
// wait (the named-barrier flavour: ptxas serializes the wgmmas of a loop
// that waits on an mbarrier while products are in flight). The consumers
// release a slot at its `empty` named barrier; the producer acquires the
// slot there before it refills it, and drains the last releases before the
// block exits so that no named barrier is left with arrivals. (A kernel
// whose every thread copies and consumes releases its slots at block-wide
// barriers and uses only the mbarriers of the ring.)
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_STAGERING_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_STAGERING_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

namespace mlir::uta {

/// Where a ring's barriers are and how many threads meet at them.
struct StageRingLayout {
  int64_t slots = 1;
  /// The ring's first mbarrier in the kernel's memref of stage mbarriers.
  int64_t firstMbarrier = 0;
  /// The named barrier ids of the slots' releases, and (named-barrier
  /// flavour, else 0) of their hand-overs, each the first of `slots`.
  int64_t firstEmptyBarrier = 0, firstFullBarrier = 0;
  /// Threads that meet at a release (the producer's waiting warp and the
  /// consumers) and at a hand-over (the producer threads that hand on and
  /// the consumers).
  int64_t emptyThreads = 0, fullThreads = 0;
};

class StageRing : IndexMath {
public:
  /// `landed` is the kernel's memref of stage mbarriers
  /// (emitStageMbarriers).
  StageRing(OpBuilder &b, Location loc, Value landed,
            const StageRingLayout &layout)
      : IndexMath(b, loc), landed(landed), layout(layout) {}

  int64_t getSlots() const { return layout.slots; }
  /// The slot of use `use` (index).
  Value getSlot(Value use) { return rem(use, layout.slots); }
  /// The mbarrier (a shared pointer) on which `slot`'s copies land.
  Value getLanded(Value slot);

  /// The producer: waits for the consumers' release of `slot`'s last use.
  void emitAcquire(Value slot);
  /// The producer's first thread: expects `bytes` on `slot`'s mbarrier for
  /// the copies it then issues, completing there; returns the mbarrier.
  Value emitExpectBytes(Value slot, int64_t bytes);
  /// Waits until the copies of use `use` (index) have landed in `slot`.
  void emitWaitLanded(Value slot, Value use);
  /// Named-barrier flavour: producer threads hand `slot` on to the
  /// consumers, which wait for it.
  void emitHandOn(Value slot);
  void emitWaitHandedOn(Value slot);
  /// The consumers release `slot`.
  void emitRelease(Value slot);
  /// The producer: waits for the releases of the last `slots` of `uses`
  /// uses (index), so that no named barrier is left with arrivals; of a
  /// count known here, unrolled.
  void emitDrain(Value uses);
  void emitDrain(int64_t uses);

private:
  Value getEmptyBarrier(Value slot) {
    return add(slot, layout.firstEmptyBarrier);
  }
  Value getFullBarrier(Value slot) {
    return add(slot, layout.firstFullBarrier);
  }

  Value landed;
  StageRingLayout layout;
};

/// The cp.async flavour, for kernels whose every thread copies and
/// consumes (the mma.sync schedule, the wgmma schedules without a producer
/// warpgroup): stage s % `stages` holds step s; the copies of the `ahead`
/// steps after the one consumed are in flight, each step's copies one
/// commit group (an empty group where the step is past `steps`, so that
/// the count of groups stays that of steps). A step is consumed once its
/// group has landed and a block-wide barrier has made every thread's
/// copies visible (after a proxy fence with `fenceAsyncProxy`: wgmma reads
/// shared memory through the async proxy, cp.async writes through the
/// generic one); that barrier also frees the stage the next refill
/// overwrites.
struct CpAsyncRing {
  int64_t stages = 2;
  int64_t ahead = 1;
  bool fenceAsyncProxy = false;
};

/// Issues step `step`'s copies into `stage` as one commit group: an empty
/// group where the step is past `steps`, so that every step counts one.
void emitCpAsyncStepCopies(
    OpBuilder &b, Location loc, Value step, Value steps, Value stage,
    function_ref<void(Value step, Value stage)> copyStep);

/// Emits the ring's copies of the first `ahead` steps, then a loop over
/// `steps` (index) steps on `init`: each iteration waits for its step,
/// refills the stage `ahead` steps on, then `consumeStep(step, stage,
/// values)` updates the loop's values. Returns the final values; the
/// caller drains the ring (cp.async.wait_group 0) once nothing else is in
/// flight.
SmallVector<Value> emitCpAsyncMainLoop(
    OpBuilder &b, Location loc, const CpAsyncRing &ring, Value steps,
    ValueRange init, function_ref<void(Value step, Value stage)> copyStep,
    function_ref<void(Value step, Value stage, SmallVectorImpl<Value> &values)>
        consumeStep);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_STAGERING_H
