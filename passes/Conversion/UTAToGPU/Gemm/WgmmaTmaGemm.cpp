//===- WgmmaTmaGemm.cpp - The warp-specialised Hopper GEMM (sm_90a) -------===//
//
// Hopper's GEMM as its hardware intends: the tensor memory accelerator
// copies the tiles, mbarriers order the pipeline, and the warpgroups split
// into roles.
//
// A block is one producer warpgroup (threads 0-127) and warpsM consumer
// warpgroups; consumer w computes rows [w * tileM / warpsM, ...) of the
// tileM x tileN tile in 64-row slabs, each one wgmma accumulator (see
// Wgmma.h). Shared memory holds `stages` A tiles [tileM][tileK] and B tiles
// [tileN][tileK] (both K-contiguous) of 128-byte rows, which the tensor
// maps fill with the 128-byte swizzle the wgmma descriptors describe.
//
// Each stage has two mbarriers. `full` completes when the stage's bytes
// have landed: the producer's first thread arrives on it expecting the
// bytes of both boxes, then issues them. `empty` completes when every
// consumer warpgroup has finished reading the stage: one thread of each
// arrives once the wgmma group of that step is known complete. Step s
// uses stage s % stages for the (s / stages)-th time, so it waits for the
// phase of that parity; the producer waits on `empty` for the phase before
// (a fresh barrier counts its phase before the first as complete, so the
// first round of stages passes at once).
//
// A consumer waits for each step's products before releasing its stage:
// with a group left in flight across the mbarrier operations ptxas
// serializes the loop's wgmmas, and while one consumer warpgroup waits the
// others keep the tensor cores busy. The producer runs up to `stages` tiles
// ahead of the slowest consumer. The producer needs few registers and the
// consumers' accumulators many: setmaxnreg moves them (the kernel's
// maximum block size caps the registers at entry, which setmaxnreg needs).
//
// The epilogue runs on the accumulators as the wgmma schedule's does.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
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
  /// The tensor maps, tiles and mbarriers; initializes the barriers.
  LogicalResult setUp();
  /// The producer's first thread: for every step, waits for its stage to
  /// be free and issues the boxes of A and B into it.
  void emitProducer();
  /// A consumer warpgroup: the K loop on the accumulators, then the
  /// epilogue.
  void emitConsumer(ElementEpilogue epilogue);
  /// Issues the wgmmas of the tiles in stage `stage` on `acc`.
  void emitProducts(Value stage, SmallVectorImpl<Value> &acc);

  /// The mbarrier (a shared pointer) of `stage` that completes when its
  /// tiles have landed, and the one that completes when it has been read.
  Value getFullBarrier(Value stage) {
    return emitSharedPointer(b, loc, barriers, mul(stage, 8));
  }
  Value getEmptyBarrier(Value stage) {
    return emitSharedPointer(b, loc, barriers,
                             add(mul(stage, 8), c.stages * 8));
  }
  /// The parity of the phase of its stage's barriers that step `step`
  /// waits for: the (step / stages)-th use of the stage.
  Value getPhaseParity(Value step) { return rem(div(step, c.stages), 2); }

  int64_t getStageBytes() const {
    return (c.tileM + c.tileN) * c.tileK * p.getElementBytes();
  }
  int64_t getSteps() const { return llvm::divideCeil(p.k, c.tileK); }
  /// x - y, for x >= y.
  Value sub(Value x, int64_t y) {
    return arith::SubIOp::create(b, loc, x, index(y));
  }

  Value threadId;
  Value aMap, bMap;
  /// [stages][tileM][tileK] and [stages][tileN][tileK].
  Value aTiles, bTiles;
  /// memref<2 * stages x i64>: the full barriers, then the empty ones.
  Value barriers;
};

} // namespace

/// Registers per thread of the producer warpgroup, which only issues
/// copies, and the most a thread may hold.
static constexpr int64_t kProducerRegisters = 40;
static constexpr int64_t kMaxRegisters = 256;
/// Registers of one SM, shared by the block's threads.
static constexpr int64_t kRegistersPerSm = 65536;

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
  aTiles = io.allocateWorkgroupBuffer(b, loc, {c.stages, c.tileM, c.tileK},
                                      p.elementType, kWgmmaTileAlignment);
  bTiles = io.allocateWorkgroupBuffer(b, loc, {c.stages, c.tileN, c.tileK},
                                      p.elementType, kWgmmaTileAlignment);
  barriers = io.allocateWorkgroupBuffer(b, loc, {2 * c.stages}, b.getI64Type(),
                                        /*alignment=*/8);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threadId, index(0));
  SmallVector<Value> full, empty;
  for (int64_t s = 0; s < c.stages; ++s) {
    full.push_back(getFullBarrier(index(s)));
    empty.push_back(getEmptyBarrier(index(s)));
  }
  emitMbarrierInit(b, loc, full, first);
  emitMbarrierInit(b, loc, empty, first, /*arrivals=*/c.warpsM);
  gpu::BarrierOp::create(b, loc);
  return success();
}

void WgmmaTmaGemmEmitter::emitProducer() {
  OpBuilder::InsertionGuard guard(b);
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                            index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  auto loop = scf::ForOp::create(b, loc, index(0), index(getSteps()), index(1));
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  Value stage = rem(step, c.stages);
  // The phase before this use: the consumers' release of the stage's last
  // use (passes at once for the first round).
  Value released = rem(add(div(step, c.stages), 1), 2);
  emitMbarrierWait(b, loc, getEmptyBarrier(stage), released);
  Value full = getFullBarrier(stage);
  emitMbarrierArriveExpectBytes(b, loc, full, index(getStageBytes()));
  int64_t bytes = p.getElementBytes();
  Value k0 = mul(step, c.tileK);
  Value aTile =
      emitSharedPointer(b, loc, aTiles, mul(stage, c.tileM * c.tileK * bytes));
  emitTensorMapCopy(b, loc, aTile, aMap,
                    getBoxCoordinates(k0, block.row, block.lhsBatch), full);
  Value bTile =
      emitSharedPointer(b, loc, bTiles, mul(stage, c.tileN * c.tileK * bytes));
  emitTensorMapCopy(b, loc, bTile, bMap,
                    getBoxCoordinates(k0, block.column, block.rhsBatch), full);
}

void WgmmaTmaGemmEmitter::emitProducts(Value stage,
                                       SmallVectorImpl<Value> &acc) {
  int64_t bytes = p.getElementBytes();
  Value consumer = sub(div(threadId, 128), 1);
  // This warpgroup's first row of the A tile, in bytes. One op per
  // statement: the IR must not depend on argument evaluation order.
  Value slabOffset = mul(consumer, c.tileM / c.warpsM * kWgmmaRowBytes);
  Value aBase = emitSharedAddress(b, loc, aTiles);
  Value aStage = add(aBase, mul(stage, c.tileM * c.tileK * bytes));
  Value bBase = emitSharedAddress(b, loc, bTiles);
  Value bStage = add(bBase, mul(stage, c.tileN * c.tileK * bytes));
  Value aDescriptor = emitWgmmaDescriptor(b, loc, add(aStage, slabOffset));
  Value bDescriptor = emitWgmmaDescriptor(b, loc, bStage);
  emitWgmmaStep(b, loc, acc, {aDescriptor, bDescriptor, Value(), Value()},
                kWgmmaRowBytes, c.tileK * bytes / kWgmmaStepBytes,
                p.elementType);
}

void WgmmaTmaGemmEmitter::emitConsumer(ElementEpilogue epilogue) {
  Value consumerThread = sub(threadId, 128);
  Value isLeader = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, rem(consumerThread, 128), index(0));
  Value zero = LLVM::ZeroOp::create(
      b, loc, getWgmmaAccumulatorType(b.getContext(), c.tileN));
  SmallVector<Value> zeros(c.tileM / c.warpsM / kWgmmaSlabRows, zero);
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(getSteps()), index(1), zeros,
      [&](OpBuilder &nb, Location, Value step, ValueRange accumulators) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        Value stage = rem(step, c.stages);
        emitMbarrierWait(b, loc, getFullBarrier(stage), getPhaseParity(step));
        SmallVector<Value> acc(accumulators);
        emitProducts(stage, acc);
        // The step's products complete before its stage is released: with
        // a group left in flight across the mbarrier operations, ptxas
        // serializes every wgmma of the loop (C7514; measured slower), and
        // the other consumer warpgroups keep the tensor cores busy
        // meanwhile.
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
        emitMbarrierArrive(b, loc, getEmptyBarrier(stage), isLeader);
        scf::YieldOp::create(b, loc, acc);
      });
  emitWgmmaEpilogue(b, loc, plan, block, consumerThread, loop.getResults(),
                    epilogue);
}

LogicalResult WgmmaTmaGemmEmitter::emit(ElementEpilogue epilogue) {
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  block = emitGemmBlockPosition(b, loc, plan);
  if (failed(setUp()))
    return failure();
  // Each role is one branch of a single if/else, as setmaxnreg needs.
  // The register cap at entry (one block per SM) is what each thread holds
  // until setmaxnreg moves the producer's spare registers to the consumers.
  int64_t threads = c.getNumThreads();
  int64_t atEntry = kRegistersPerSm / threads / 8 * 8;
  int64_t consumerRegisters =
      std::min(kMaxRegisters,
               (threads * atEntry - 128 * kProducerRegisters) /
                   (threads - 128) / 8 * 8);
  auto roles = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, threadId,
                            index(128)),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roles.thenBlock());
  if (atEntry > kProducerRegisters)
    NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
  emitProducer();
  b.setInsertionPointToStart(roles.elseBlock());
  if (consumerRegisters > atEntry)
    NVVM::SetMaxRegisterOp::create(b, loc, consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
  emitConsumer(epilogue);
  return success();
}

LogicalResult mlir::uta::emitWgmmaTmaGemm(OpBuilder &b, Location loc,
                                          const GemmPlan &plan, KernelIO &io,
                                          ElementEpilogue epilogue) {
  return WgmmaTmaGemmEmitter(b, loc, plan, io).emit(epilogue);
}
