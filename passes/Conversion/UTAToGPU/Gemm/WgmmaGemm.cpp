//===- WgmmaGemm.cpp - The wgmma schedule of the GEMM engine (sm_90a) -----===//
//
// Hopper's warpgroup MMA. A block of warpsM warpgroups (128 threads each)
// computes a tileM x tileN tile; warpgroup w owns rows [w * tileM / warpsM,
// ...) in slabs of 64 rows, each slab one wgmma accumulator of
// m64 x tileN f32 (an LLVM struct of tileN / 2 values per thread: warp q of
// the warpgroup holds rows 16q + g and 16q + g + 8, columns 8j + 2t and
// 8j + 2t + 1 for lane 4g + t, j = 0 .. tileN / 8 - 1).
//
// Pipeline: `stages` shared-memory buffers per operand, filled by 16-byte
// cp.async of every thread, `ahead` tiles in flight; step s waits for tile
// s, makes the copies visible to the tensor cores' (async) proxy, passes
// one barrier, issues the copies of tile s + ahead and the tile's wgmmas,
// then waits until at most `inFlight` groups of wgmmas are pending. With
// one group in flight (f16, bf16, TF32) the tensor cores multiply tile s
// while the threads pass the next barrier and issue the next copies; tile
// s - 1's buffer is then still being read, so the copies run stages - 2
// tiles ahead. 3xTF32 reads its products' fresh accumulators at the end of
// each step: nothing in flight, stages - 1 tiles ahead.
//
// Shared memory: A tiles [tileM][tileK] and B tiles [tileN][tileK] (B is
// K-contiguous: transpose_b) with rows of 128 bytes whose 16-byte chunks
// are XOR-swizzled by the row within each group of 8 rows, at 1024-byte
// aligned addresses: exactly the K-major layout with 128-byte swizzle that
// a wgmma shared-memory descriptor describes (8-row groups 1024 bytes
// apart). A descriptor addresses the K step kk of a slab by adding kk * 32
// bytes to the slab's start; the hardware applies the swizzle.
//
// Precision: f16 and bf16 products are exact. The tensor cores read the 19
// high bits of an f32 element (its TF32 value truncated). TF32 rounds each
// stage's tiles to nearest in place first (ties away, as cvt.rna.tf32.f32;
// truncation would triple the error, measured 7.8e-4 against 2.9e-4 at
// 4096^3). 3xTF32 splits each stage's tiles into the high parts the tensor
// cores read and the exact remainders x - high(x), written to tiles of
// their own, and the tile's product is small_a * high_b + high_a * small_b
// + high_a * high_b, summed into fresh accumulators that are added to the
// running ones with round-to-nearest f32 adds (the tensor cores' own
// additions truncate).
//
// Epilogue: where the result rows allow, the accumulators are staged in
// the tiles' shared memory and stored 4 consecutive elements at a time
// (emitStagedWgmmaEpilogue); otherwise element by element where each
// register is.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/SharedTiles.h"
#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"
#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

class WgmmaGemmEmitter : GemmScheduleEmitter {
public:
  using GemmScheduleEmitter::GemmScheduleEmitter;

  LogicalResult emit(ElementEpilogue epilogue);

private:
  void initOperands();
  /// Issues the copies of K tile `step` of both operands into `stage`.
  void copyTiles(Value step, Value stage);
  /// Issues the tile's wgmmas into the accumulators (fresh ones for
  /// 3xTF32) and waits until at most `inFlight` groups are pending.
  void computeStage(Value stage, SmallVectorImpl<Value> &acc);

  int64_t slabsPerWarpgroup() const {
    return c.tileM / c.warpsM / kWgmmaSlabRows;
  }

  Value threadId, warpgroup;
  /// Groups of wgmmas left pending at the end of a step, and the tiles
  /// whose copies are in flight ahead of the one computed.
  int64_t inFlight = 0, ahead = 1;
  StagedOperand a, bOperand;
  /// 3xTF32: one stage's remainders of A and B.
  Value aSmall, bSmall;
};

} // namespace

void WgmmaGemmEmitter::initOperands() {
  a.rows = c.tileM;
  a.columns = c.tileK;
  a.batch = block.lhsBatch;
  a.globalRows = p.m;
  a.globalColumns = p.k;
  a.asyncCopy = true;
  a.swizzle = getRowSwizzle(kWgmmaRowBytes, /*readByLdmatrix=*/true);
  bOperand.rows = c.tileN;
  bOperand.columns = c.tileK;
  bOperand.batch = block.rhsBatch;
  bOperand.globalRows = p.n;
  bOperand.globalColumns = p.k;
  bOperand.asyncCopy = true;
  bOperand.swizzle = a.swizzle;
}

void WgmmaGemmEmitter::copyTiles(Value step, Value stage) {
  Value k0 = mul(step, c.tileK);
  int64_t threads = c.getNumThreads();
  emitTileCopy(b, loc, a, threadId, threads, block.row, k0, stage,
               /*enabled=*/nullptr);
  emitTileCopy(b, loc, bOperand, threadId, threads, block.column, k0, stage,
               /*enabled=*/nullptr);
}

void WgmmaGemmEmitter::computeStage(Value stage, SmallVectorImpl<Value> &acc) {
  int64_t bytes = p.getElementBytes();
  int64_t aStageBytes = c.tileM * c.tileK * bytes;
  int64_t bStageBytes = c.tileN * c.tileK * bytes;
  int64_t warpgroupRows = c.tileM / c.warpsM;
  // This warpgroup's first row of the tile, in bytes of a tile.
  Value slabOffset = mul(warpgroup, warpgroupRows * kWgmmaRowBytes);
  // One op per statement: the IR must not depend on argument evaluation
  // order.
  auto stageAddress = [&](Value buffer, int64_t stageBytes) {
    Value base = emitSharedAddress(b, loc, buffer);
    Value offset = mul(stage, stageBytes);
    return add(base, offset);
  };
  Value aStage = stageAddress(a.buffer, aStageBytes);
  Value bStage = stageAddress(bOperand.buffer, bStageBytes);
  Value aHigh = emitWgmmaDescriptor(b, loc, add(aStage, slabOffset));
  Value bHigh = emitWgmmaDescriptor(b, loc, bStage);
  Value aLow, bLow;
  if (plan.precision == GemmPrecision::Tf32x3) {
    Value aSmallBase = emitSharedAddress(b, loc, aSmall);
    aLow = emitWgmmaDescriptor(b, loc, add(aSmallBase, slabOffset));
    bLow = emitWgmmaDescriptor(b, loc, emitSharedAddress(b, loc, bSmall));
  }
  emitWgmmaStep(b, loc, acc, {aHigh, bHigh, aLow, bLow, {}, {}}, kWgmmaRowBytes,
                c.tileK * bytes / kWgmmaStepBytes, p.elementType);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, inFlight);
}

LogicalResult WgmmaGemmEmitter::emit(ElementEpilogue epilogue) {
  a.global = io.getOperandBuffer(0);
  bOperand.global = io.getOperandBuffer(1);
  if (!a.global || !bOperand.global)
    return emitError(loc, "the wgmma GEMM reads its operands from buffers");
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warpgroup = div(threadId, 128);
  block = emitGemmBlockPosition(b, loc, plan);
  initOperands();
  for (StagedOperand *operand : {&a, &bOperand})
    operand->buffer = io.allocateWorkgroupBuffer(
        b, loc, {c.stages, operand->rows, operand->columns}, p.elementType,
        kWgmmaTileAlignment);
  if (plan.precision == GemmPrecision::Tf32x3) {
    aSmall = io.allocateWorkgroupBuffer(b, loc, {a.rows, a.columns},
                                        p.elementType, kWgmmaTileAlignment);
    bSmall =
        io.allocateWorkgroupBuffer(b, loc, {bOperand.rows, bOperand.columns},
                                   p.elementType, kWgmmaTileAlignment);
  }

  int64_t steps = llvm::divideCeil(p.k, c.tileK);
  inFlight = plan.precision != GemmPrecision::Tf32x3 && c.stages >= 3 ? 1 : 0;
  ahead = c.stages - 1 - inFlight;
  Value zero = LLVM::ZeroOp::create(
      b, loc, getWgmmaAccumulatorType(b.getContext(), c.tileN));
  CpAsyncRing ring;
  ring.stages = c.stages;
  ring.ahead = ahead;
  ring.fenceAsyncProxy = true;
  SmallVector<Value> accumulators = emitCpAsyncMainLoop(
      b, loc, ring, index(steps), SmallVector<Value>(slabsPerWarpgroup(), zero),
      [&](Value step, Value stage) { copyTiles(step, stage); },
      [&](Value, Value stage, SmallVectorImpl<Value> &acc) {
        if (plan.precision == GemmPrecision::Tf32 ||
            plan.precision == GemmPrecision::Tf32x3) {
          emitTf32SplitOrRound(b, loc, a.buffer, stage, aSmall, threadId,
                               c.getNumThreads());
          emitTf32SplitOrRound(b, loc, bOperand.buffer, stage, bSmall, threadId,
                               c.getNumThreads());
          emitAsyncProxyFence(b, loc);
          gpu::BarrierOp::create(b, loc);
        }
        if (plan.precision == GemmPrecision::Tf32x3) {
          SmallVector<Value> tile(acc.size(), zero);
          computeStage(stage, tile);
          for (auto [sum, part] : llvm::zip_equal(acc, tile))
            sum = emitWgmmaAccumulatorSum(b, loc, sum, part);
        } else {
          computeStage(stage, acc);
        }
      });
  if (inFlight)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  // Only empty groups can be pending here; leave none behind.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  // The accumulators staged where the tiles were, for vector stores.
  if (succeeded(emitStagedWgmmaEpilogue(
          b, loc, plan, block, io, a.buffer, threadId, c.getNumThreads(),
          [&] { gpu::BarrierOp::create(b, loc); }, accumulators, epilogue)))
    return success();
  emitWgmmaEpilogue(b, loc, plan, block, threadId, accumulators, epilogue);
  return success();
}

LogicalResult mlir::uta::emitWgmmaGemm(OpBuilder &b, Location loc,
                                       const GemmPlan &plan, KernelIO &io,
                                       ElementEpilogue epilogue) {
  return WgmmaGemmEmitter(b, loc, plan, io).emit(epilogue);
}
