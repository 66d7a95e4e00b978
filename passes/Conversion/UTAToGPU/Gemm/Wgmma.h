//===- Wgmma.h - Building blocks of the wgmma schedules ---------*- C++ -*-===//
//
// What the sm_90a schedules (the matmul's and fc_product's) share: the
// shared-memory descriptors of K-major tiles with the 128-byte swizzle, the
// warpgroup MMA itself, the accumulators (an LLVM struct per 64-row slab)
// and how their elements map to the tile, the proxy fence between generic
// shared-memory writes and the tensor cores' reads, and TF32 rounding.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WGMMA_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WGMMA_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

namespace mlir::uta {

/// Rows of one wgmma accumulator (an m64 slab).
constexpr int64_t kWgmmaSlabRows = 64;
/// Bytes of a tile row: the width of the 128-byte swizzle.
constexpr int64_t kWgmmaRowBytes = 128;
/// Bytes of one K step of a wgmma (16 f16/bf16 or 8 tf32 elements).
constexpr int64_t kWgmmaStepBytes = 32;
/// 128-byte-swizzled tiles start at 1024-byte boundaries.
constexpr int64_t kWgmmaTileAlignment = 1024;

/// The shared-memory descriptor of a K-major tile whose first 8-row group
/// is at shared-window byte `address` (index), with rows of `rowBytes` (128
/// or 64) swizzled as getRowSwizzle lays them out (the 128- or 64-byte
/// swizzle): 8-row groups 8 * rowBytes apart.
Value emitWgmmaDescriptor(OpBuilder &b, Location loc, Value address,
                          int64_t rowBytes = kWgmmaRowBytes);

/// `descriptor` moved `byteOffset` bytes on (a multiple of 16: the next K
/// step is 32 bytes on, the next slab 64 rows of 128 bytes).
Value offsetWgmmaDescriptor(OpBuilder &b, Location loc, Value descriptor,
                            int64_t byteOffset);

/// The shared-window address of `buffer`'s first element, as an index.
Value emitSharedAddress(OpBuilder &b, Location loc, Value buffer);

/// The accumulators of an m64 x `n` slab: n / 2 f32 per thread.
LLVM::LLVMStructType getWgmmaAccumulatorType(MLIRContext *context, int64_t n);

/// acc (+)= A x B for the m64 x n x k step of `elementType` (f16, bf16, or
/// f32 read as TF32) whose A and B are K-major tiles at the descriptors;
/// `accumulate` false ignores acc's values.
Value emitWgmma(OpBuilder &b, Location loc, Value acc, Value descriptorA,
                Value descriptorB, Type elementType, bool accumulate);

/// acc (+)= A x B for the m64 x n x 8 TF32 step whose A is in registers:
/// `fragment` holds this thread's four f32 (see emitLoadTf32Fragments),
/// which the tensor cores read as TF32 (dropping their 13 low mantissa
/// bits); B is the K-major tile at the descriptor.
Value emitWgmmaTf32RegisterA(OpBuilder &b, Location loc, Value acc,
                             ArrayRef<Value> fragment, Value descriptorB,
                             bool accumulate);

/// The four f32 of one m64 x k8 TF32 A fragment held by a thread.
using Tf32Fragment = SmallVector<Value, 4>;

/// Loads this thread's TF32 A fragments from stage `stage` of `tiles`
/// (memref<stages x rows x 32 x f32>, workgroup, 128-byte rows laid out by
/// the 128-byte swizzle) for `slabs` 64-row slabs from row `firstRow` and
/// the tile's four K steps; slab-major. `warpgroupThread` is this thread's
/// index in its warpgroup: register i of warp q's lane 4g + t holds row
/// 16q + g + 8 (i % 2), column t + 4 (i / 2) of the step. One ldmatrix per
/// fragment, free of bank conflicts.
SmallVector<Tf32Fragment>
emitLoadTf32Fragments(OpBuilder &b, Location loc, Value tiles, Value stage,
                      Value firstRow, Value warpgroupThread, int64_t slabs);

/// Allocates the words that the holds of `fragments` A fragments store to
/// (16 bytes each, one for every thread) and returns their shared-window
/// byte address (index).
Value emitRegisterAHoldWords(OpBuilder &b, Location loc, KernelIO &io,
                             int64_t fragments);

/// Waits until at most `inFlight` groups of products are pending, which
/// completes the group that read this thread's A registers `fragments`,
/// and keeps those registers allocated until then, as operands of stores
/// (after the wait) to the words at shared-window byte `words` (index,
/// emitRegisterAHoldWords's), skipped so that they almost never run. ptxas
/// frees a wgmma's A registers at the next wgmma.wait_group, even one that
/// leaves its group in flight, and would hand them to later instructions
/// while the tensor cores still read them.
void emitRegisterAHold(OpBuilder &b, Location loc, int64_t inFlight,
                       ArrayRef<Tf32Fragment> fragments, Value words);

/// One step of a loop that keeps a group of products in flight on values
/// of each step's own: emits step `step` on `state` given `pending`, what
/// the previous step left for this one (its A registers, to hold once its
/// products are complete), sets what it leaves for the next step and
/// returns the new state.
using PairedStep = function_ref<SmallVector<Value>(
    Value step, ValueRange state, ValueRange pending,
    SmallVectorImpl<Value> &leftPending)>;

/// Steps [0, `count`) (index) of `step` from `initial` and `initialPending`
/// (what the step before the first leaves), two per iteration, so that
/// consecutive steps' values are distinct registers: no step writes the
/// registers that the group still in flight reads (the odd step's values
/// are carried to the next iteration, and to an odd count's last step,
/// where the step after reads them). Returns the final state;
/// `lastPending` gets what the last step leaves.
SmallVector<Value> emitPairedStepLoop(OpBuilder &b, Location loc, Value count,
                                      ValueRange initial,
                                      ValueRange initialPending,
                                      PairedStep step,
                                      SmallVectorImpl<Value> &lastPending);

/// One step of a loop whose wgmmas take A from registers with a group of
/// products in flight: emits step `step` on `state` with A registers of its
/// own, returned in `issued`, holds `held` (the previous step's, see
/// emitRegisterAHold) after the wait that completes the previous step's
/// products, and returns the new state.
using RegisterAStep = function_ref<SmallVector<Value>(
    Value step, ValueRange state, ArrayRef<Tf32Fragment> held,
    SmallVectorImpl<Tf32Fragment> &issued)>;

/// Steps [0, `count`) (index) of `step` from `initial`, two per iteration:
/// consecutive steps then issue from different registers, so that no
/// step's A is written while the products of the step before still read
/// theirs. `fragments` is the number of A fragments of a step. Returns the
/// final state; the caller waits for the last step's products and then
/// holds `lastIssued`, that step's A registers.
SmallVector<Value>
emitRegisterAStepLoop(OpBuilder &b, Location loc, Value count,
                      ValueRange initial, int64_t fragments, RegisterAStep step,
                      SmallVectorImpl<Tf32Fragment> &lastIssued);

/// The operands of one step: the descriptors of its K-major tiles (A at
/// this warpgroup's first slab, and B), and for 3xTF32 the remainders'
/// (null otherwise). A TF32 A may instead be in registers: fragments for
/// each slab and K step (slab-major), and for 3xTF32 their remainders';
/// then aHigh and aLow are unused.
struct WgmmaStepOperands {
  Value aHigh, bHigh, aLow, bLow;
  SmallVector<Tf32Fragment> aFragments, aLowFragments;
};

/// Issues one step's products into `acc` (an accumulator per 64-row slab,
/// slabs 64 rows of `rowBytes` apart in A) as one wgmma group, `kSteps` K
/// steps of 32 bytes: high A x high B, preceded with remainders by small A x
/// high B and high A x small B, which then go into fresh accumulators (the
/// step's first product ignores acc's values, as it does for every step
/// where `ignoreAcc`). Emits the wgmma fence before and the commit after;
/// the caller waits.
void emitWgmmaStep(OpBuilder &b, Location loc, SmallVectorImpl<Value> &acc,
                   const WgmmaStepOperands &operands, int64_t rowBytes,
                   int64_t kSteps, Type elementType, bool ignoreAcc = false);

/// acc + part element by element, in f32 round to nearest.
Value emitWgmmaAccumulatorSum(OpBuilder &b, Location loc, Value acc,
                              Value part);

/// Makes this thread's generic shared-memory writes (stores, cp.async)
/// visible to the tensor cores' async proxy; a barrier must follow before
/// other threads' wgmmas read them.
void emitAsyncProxyFence(OpBuilder &b, Location loc);

/// f32 values (a scalar or a vector) rounded to TF32, to nearest with ties
/// away from zero (as cvt.rna.tf32.f32): add half a TF32 ulp to the bits
/// and clear the 13 low mantissa bits.
Value emitTf32Round(OpBuilder &b, Location loc, Value value);

/// `value` (f32) for a TF32 operand of the tensor cores, which ignore the 13
/// low mantissa bits: half a TF32 ulp added to the bits, so that the bits
/// the tensor cores read are those of emitTf32Round, one instruction fewer.
Value emitTf32RoundForTruncation(OpBuilder &b, Location loc, Value value);

/// The TF32 value the tensor cores read from f32 values: the 13 low
/// mantissa bits cleared.
Value emitTf32Truncate(OpBuilder &b, Location loc, Value value);

/// Rewrites stage `stage` of the f32 tiles `tiles` (memref<stages x rows x
/// columns>, workgroup) four elements at a time, spread over `numThreads`
/// threads (`threadId` is this one's, from 0): where `small` is given
/// (memref<rows x columns>, or <stages x rows x columns> indexed by
/// `stage`), the remainders x - high(x) of 3xTF32 go there in the same
/// layout; otherwise each element is rounded to TF32 in place. Element
/// positions are kept, so a swizzle carries over.
void emitTf32SplitOrRound(OpBuilder &b, Location loc, Value tiles, Value stage,
                          Value small, Value threadId, int64_t numThreads);

/// Hands the accumulators of this thread (one struct per slab of its
/// warpgroup; warpgroup w's rows start at w * tileM / warpsM) to the
/// epilogue element by element: registers 4j .. 4j + 3 of warp q hold rows
/// 16q + g and 16q + g + 8, columns 8j + 2t and 8j + 2t + 1 (lane 4g + t).
void emitWgmmaEpilogue(OpBuilder &b, Location loc, const GemmPlan &plan,
                       const GemmBlockPosition &block, Value threadId,
                       ValueRange accumulators, ElementEpilogue epilogue);

/// Whether emitStagedWgmmaEpilogue takes `plan`'s tile with `numThreads`
/// threads: result rows and tile rows of whole 4-element vectors, and
/// whole turns of the threads over the tile (not whether the staging tile
/// fits: that is the caller's memory).
bool canStageWgmmaEpilogue(const GemmPlan &plan, int64_t numThreads);

/// The epilogue through shared memory, for matmuls whose result rows hold
/// a multiple of 4 elements (a direct epilogue stores each element where
/// its accumulator register is: 2 or 4 bytes at a time, 8 rows per warp
/// store). The `numThreads` threads that hold `accumulators` (`threadId`
/// from 0, warpgroups as emitWgmmaEpilogue numbers them) write them into a
/// staging tile of f32 at `stagingAt` (an allocated workgroup buffer whose
/// memory, and the buffers' after it, are free once `barrier` returns; see
/// KernelIO::aliasWorkgroupBuffer), rows padded by kStagingRowPadding; then
/// each takes 4 consecutive elements of a row at a time and runs their
/// epilogue lane by lane in one access group of `io`, so that the result
/// and the fused operands are accessed as vectors, each warp's in
/// consecutive addresses. `barrier` synchronizes exactly these threads; it
/// runs before the writes and between writes and reads. Fails, emitting
/// nothing, where the result rows are not a multiple of 4 or the staging
/// tile does not fit. With `rowScales`, which runs once the staging tile
/// is complete and returns a workgroup buffer [tileM] f32, each element is
/// multiplied by its row's scale before its epilogue.
LogicalResult
emitStagedWgmmaEpilogue(OpBuilder &b, Location loc, const GemmPlan &plan,
                        const GemmBlockPosition &block, KernelIO &io,
                        Value stagingAt, Value threadId, int64_t numThreads,
                        function_ref<void()> barrier, ValueRange accumulators,
                        ElementEpilogue epilogue,
                        function_ref<Value(Value staging)> rowScales = nullptr);

/// f32 of padding after each row of the staging tile: the accumulators'
/// pair stores of a half-warp (8 bytes each, rows g, columns 2t) then hit
/// 32 distinct banks.
constexpr int64_t kStagingRowPadding = 8;

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMM_WGMMA_H
