//===- WarpSpecialisation.h - Producer and consumer warpgroups --*- C++ -*-===//
//
// What the warp-specialised sm_90a schedules (the matmul's and
// fc_product's) share: the split of a block into a producer warpgroup
// (threads 0-127) and consumer warpgroups, with setmaxnreg moving the
// producer's spare registers to the consumers, and the named barriers
// (bar.sync / bar.arrive with constant thread counts) that hand stages
// between the roles.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WARPSPECIALISATION_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WARPSPECIALISATION_H

#include "mlir/IR/Builders.h"

namespace mlir::uta {

/// Named barriers of a block; 0 is the block-wide one (gpu.barrier), and
/// the last one synchronizes the consumers' epilogue.
constexpr int64_t kNamedBarriers = 16;
constexpr int64_t kEpilogueBarrier = kNamedBarriers - 1;

/// Registers per thread of a producer warpgroup that only issues copies,
/// and of one whose threads also rewrite tiles four elements at a time
/// (f32 tiles rounded or split for the tensor cores).
constexpr int64_t kCopyingProducerRegisters = 40;
constexpr int64_t kRewritingProducerRegisters = 56;

/// Waits at named barrier `id` (index) until `threads` threads, this one
/// included, have arrived or waited there.
void emitNamedBarrierWait(OpBuilder &b, Location loc, Value id,
                          int64_t threads);

/// Arrives at named barrier `id` (index) of `threads` threads without
/// waiting.
void emitNamedBarrierArrive(OpBuilder &b, Location loc, Value id,
                            int64_t threads);

/// Splits a block of `threads` threads (`threadId` is this one's) into the
/// producer warpgroup, threads 0-127, which runs `producer` with
/// `producerRegisters` registers per thread, and the consumer warpgroups,
/// which run `consumer` with what the producer gives up (at most 256 per
/// thread). Each role is one branch of a single if/else, as setmaxnreg
/// needs; the kernel's block size caps the registers at entry (one block
/// per SM), which setmaxnreg needs too.
void emitProducerConsumerRoles(OpBuilder &b, Location loc, Value threadId,
                               int64_t threads, int64_t producerRegisters,
                               function_ref<void()> producer,
                               function_ref<void()> consumer);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WARPSPECIALISATION_H
