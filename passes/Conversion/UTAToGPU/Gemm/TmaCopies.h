//===- TmaCopies.h - Tile copies by the TMA ---------------------*- C++ -*-===//
//
// Hopper's asynchronous tensor copies: one instruction moves a box of a
// tensor (a TMA descriptor, #uta.tensor_map, which the runtime encodes)
// into shared memory, zeros past the tensor's end, and completes as bytes on
// an mbarrier. A stage's first thread expects its bytes and issues its
// boxes; every thread waits for the stage's phase before reading it.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_TMACOPIES_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_TMACOPIES_H

#include "mlir/IR/Builders.h"

namespace mlir::uta {

class KernelIO;

/// The shared-memory pointer (!llvm.ptr<3>) `byteOffset` (index) bytes into
/// the workgroup memref `buffer`.
Value emitSharedPointer(OpBuilder &b, Location loc, Value buffer,
                        Value byteOffset);

/// One mbarrier per stage of a pipeline whose copies complete as bytes: a
/// new workgroup buffer memref<stages x i64>, initialized for one arrival
/// per phase by thread 0 (`threadId` is this one's) before a block-wide
/// barrier.
Value emitStageMbarriers(OpBuilder &b, Location loc, KernelIO &io,
                         int64_t stages, Value threadId);

/// The mbarrier (a shared pointer) of `stage` (index) in `mbarriers`.
Value getStageMbarrier(OpBuilder &b, Location loc, Value mbarriers,
                       Value stage);

/// Arrives on `barrier` expecting `bytes` (index) more bytes in its phase.
void emitMbarrierArriveExpectBytes(OpBuilder &b, Location loc, Value barrier,
                                   Value bytes);

/// Waits until the phase of `barrier` whose parity is `parity` (index, 0 or
/// 1) completes.
void emitMbarrierWait(OpBuilder &b, Location loc, Value barrier, Value parity);

/// Waits until `barrier`, the mbarrier of a stage of a ring of `stages`
/// stages, completes the phase of the ring's use `use` (index): the stage's
/// (use / stages)-th phase, told by its parity.
void emitMbarrierWaitForUse(OpBuilder &b, Location loc, Value barrier,
                            Value use, int64_t stages);

/// Copies the box of the tensor map `tensorMap` (!llvm.ptr to the
/// descriptor) at `coordinates` (index, innermost dimension first) to
/// `destination` (!llvm.ptr<3>, 128-byte aligned), completing on `barrier`;
/// zeros past the tensor's end.
void emitTensorMapCopy(OpBuilder &b, Location loc, Value destination,
                       Value tensorMap, ArrayRef<Value> coordinates,
                       Value barrier);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_TMACOPIES_H
