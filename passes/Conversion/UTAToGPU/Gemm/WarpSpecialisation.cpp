//===- WarpSpecialisation.cpp - Producer and consumer warpgroups ----------===//

#include "passes/Conversion/UTAToGPU/Gemm/WarpSpecialisation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;

/// The most registers a thread may hold.
static constexpr int64_t kMaxRegisters = 256;
/// Registers of one SM, shared by the block's threads.
static constexpr int64_t kRegistersPerSm = 65536;

static Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

void mlir::uta::emitNamedBarrierWait(OpBuilder &b, Location loc, Value id,
                                     int64_t threads) {
  Value barrier = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id);
  NVVM::BarrierOp::create(b, loc, /*res=*/Type(), barrier, i32(b, loc, threads),
                          /*reductionOp=*/nullptr,
                          /*reductionPredicate=*/Value());
}

void mlir::uta::emitNamedBarrierArrive(OpBuilder &b, Location loc, Value id,
                                       int64_t threads) {
  Value barrier = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id);
  NVVM::BarrierArriveOp::create(b, loc, barrier, i32(b, loc, threads));
}

void mlir::uta::emitProducerConsumerRoles(OpBuilder &b, Location loc,
                                          Value threadId, int64_t threads,
                                          int64_t producerRegisters,
                                          function_ref<void()> producer,
                                          function_ref<void()> consumer) {
  // The register cap at entry is what each thread holds until setmaxnreg
  // moves the producer's spare registers to the consumers; one consumer
  // warpgroup already gets every register it may hold.
  int64_t atEntry = kRegistersPerSm / threads / 8 * 8;
  int64_t consumerRegisters =
      std::min(kMaxRegisters, (threads * atEntry - 128 * producerRegisters) /
                                  (threads - 128) / 8 * 8);
  bool moveRegisters = consumerRegisters > atEntry;
  Value isProducer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, threadId,
                            arith::ConstantIndexOp::create(b, loc, 128));
  auto roles = scf::IfOp::create(b, loc, isProducer, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roles.thenBlock());
  if (moveRegisters)
    NVVM::SetMaxRegisterOp::create(b, loc, producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
  producer();
  b.setInsertionPointToStart(roles.elseBlock());
  if (moveRegisters)
    NVVM::SetMaxRegisterOp::create(b, loc, consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
  consumer();
}
