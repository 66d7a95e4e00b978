//===- TmaCopies.cpp - Tile copies by the tensor memory accelerator -------===//

#include "passes/Conversion/UTAToGPU/Gemm/TmaCopies.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

/// NVVM's address spaces.
static constexpr unsigned kSharedSpace = 3;
static constexpr unsigned kSharedClusterSpace = 7;

Value mlir::uta::emitSharedPointer(OpBuilder &b, Location loc, Value buffer,
                                   Value byteOffset) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value address = arith::AddIOp::create(b, loc, base, byteOffset);
  Value integer =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult();
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace),
      integer);
}

/// Initializes the mbarriers at `barriers` (pointers) for one arrival per
/// phase, by the thread `isInitializer`, and makes the initialization
/// visible to the asynchronous copies.
static void emitMbarrierInit(OpBuilder &b, Location loc,
                             ArrayRef<Value> barriers, Value isInitializer) {
  {
    OpBuilder::InsertionGuard guard(b);
    auto initializer = scf::IfOp::create(b, loc, isInitializer,
                                         /*withElseRegion=*/false);
    b.setInsertionPointToStart(initializer.thenBlock());
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    for (Value barrier : barriers)
      NVVM::MBarrierInitOp::create(b, loc, barrier, one,
                                   /*predicate=*/Value());
  }
  // The tensor copies complete on these barriers from the async proxy.
  NVVM::FenceMbarrierInitOp::create(b, loc);
}

void mlir::uta::emitMbarrierArriveExpectBytes(OpBuilder &b, Location loc,
                                              Value barrier, Value bytes) {
  Value count =
      arith::IndexCastUIOp::create(b, loc, b.getI32Type(), bytes).getResult();
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, /*res=*/Type(), barrier, count,
                                         NVVM::MemScopeKind::CTA,
                                         /*relaxed=*/false,
                                         /*predicate=*/Value());
}

Value mlir::uta::emitStageMbarriers(OpBuilder &b, Location loc, KernelIO &io,
                                    int64_t stages, Value threadId) {
  Value mbarriers = io.allocateWorkgroupBuffer(b, loc, {stages}, b.getI64Type(),
                                               /*alignment=*/8);
  SmallVector<Value> barriers;
  for (int64_t s = 0; s < stages; ++s)
    barriers.push_back(getStageMbarrier(
        b, loc, mbarriers, arith::ConstantIndexOp::create(b, loc, s)));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                            arith::ConstantIndexOp::create(b, loc, 0));
  emitMbarrierInit(b, loc, barriers, first);
  gpu::BarrierOp::create(b, loc);
  return mbarriers;
}

Value mlir::uta::getStageMbarrier(OpBuilder &b, Location loc, Value mbarriers,
                                  Value stage) {
  Value offset = arith::MulIOp::create(
      b, loc, stage, arith::ConstantIndexOp::create(b, loc, 8));
  return emitSharedPointer(b, loc, mbarriers, offset);
}

void mlir::uta::emitMbarrierWaitForUse(OpBuilder &b, Location loc,
                                       Value barrier, Value use,
                                       int64_t stages) {
  Value round = arith::DivUIOp::create(
      b, loc, use, arith::ConstantIndexOp::create(b, loc, stages));
  Value parity = arith::RemUIOp::create(
      b, loc, round, arith::ConstantIndexOp::create(b, loc, 2));
  emitMbarrierWait(b, loc, barrier, parity);
}

void mlir::uta::emitMbarrierWait(OpBuilder &b, Location loc, Value barrier,
                                 Value parity) {
  Value phase =
      arith::IndexCastUIOp::create(b, loc, b.getI32Type(), parity).getResult();
  // A loop of single tries (an intrinsic) rather than NVVM's own waiting
  // loop (inline PTX with labels): ptxas serializes the wgmmas of a loop
  // that holds such a loop.
  auto loop = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
  {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&loop.getBefore());
    Value done =
        NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), barrier, phase,
                                        /*ticks=*/Value());
    Value pending = arith::XOrIOp::create(
        b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
    scf::ConditionOp::create(b, loc, pending, ValueRange());
    b.createBlock(&loop.getAfter());
    scf::YieldOp::create(b, loc);
  }
}

void mlir::uta::emitTensorMapCopy(OpBuilder &b, Location loc, Value destination,
                                  Value tensorMap, ArrayRef<Value> coordinates,
                                  Value barrier) {
  // PTX names the destination in the cluster window; a shared::cta address
  // is this block's own there.
  Value clusterDestination = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterSpace),
      destination);
  SmallVector<Value> coordinates32;
  for (Value coordinate : coordinates)
    coordinates32.push_back(
        arith::IndexCastOp::create(b, loc, b.getI32Type(), coordinate));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, clusterDestination, tensorMap, coordinates32, barrier,
      /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
      /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      /*group=*/nullptr, /*predicate=*/Value());
}
