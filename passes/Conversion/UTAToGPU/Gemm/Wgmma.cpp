//===- Wgmma.cpp - Building blocks of the wgmma schedules -----------------===//

#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

static Value i64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

Value mlir::uta::emitWgmmaDescriptor(OpBuilder &b, Location loc, Value address,
                                     int64_t rowBytes) {
  assert((rowBytes == 128 || rowBytes == 64) && "a 128- or 64-byte swizzle");
  // The fixed fields: leading byte offset 16 (unused by swizzled K-major
  // layouts), the stride between 8-row groups, the swizzle (mode 1: 128
  // bytes, 2: 64 bytes, in bits 62-63), base offset 0 (tiles aligned to the
  // swizzle's repeat).
  int64_t swizzleMode = rowBytes == 128 ? 1 : 2;
  int64_t fields = (int64_t(16 >> 4) << 16) |
                   (int64_t((8 * rowBytes) >> 4) << 32) | (swizzleMode << 62);
  Value bits = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  // Bits 0-13: the address in 16-byte units (shared memory is < 256 KiB).
  bits = arith::ShRUIOp::create(b, loc, bits, i64(b, loc, 4));
  bits = arith::AndIOp::create(b, loc, bits, i64(b, loc, 0x3fff));
  return arith::OrIOp::create(b, loc, bits, i64(b, loc, fields));
}

Value mlir::uta::offsetWgmmaDescriptor(OpBuilder &b, Location loc,
                                       Value descriptor, int64_t byteOffset) {
  assert(byteOffset % 16 == 0 && "descriptors address 16-byte units");
  if (!byteOffset)
    return descriptor;
  return arith::AddIOp::create(b, loc, descriptor,
                               i64(b, loc, byteOffset >> 4));
}

Value mlir::uta::emitSharedAddress(OpBuilder &b, Location loc, Value buffer) {
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
}

LLVM::LLVMStructType mlir::uta::getWgmmaAccumulatorType(MLIRContext *context,
                                                        int64_t n) {
  return LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(n / 2, Float32Type::get(context)));
}

Value mlir::uta::emitWgmma(OpBuilder &b, Location loc, Value acc,
                           Value descriptorA, Value descriptorB,
                           Type elementType, bool accumulate) {
  NVVM::WGMMATypes type = elementType.isBF16()  ? NVVM::WGMMATypes::bf16
                          : elementType.isF16() ? NVVM::WGMMATypes::f16
                                                : NVVM::WGMMATypes::tf32;
  int64_t n = 2 * cast<LLVM::LLVMStructType>(acc.getType()).getBody().size();
  int64_t k = kWgmmaStepBytes / (elementType.getIntOrFloatBitWidth() / 8);
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, descriptorA, descriptorB,
      NVVM::MMAShapeAttr::get(b.getContext(), kWgmmaSlabRows, n, k), type, type,
      NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
      // Both operands K-major: A "row", B "col".
      NVVM::MMALayout::row, NVVM::MMALayout::col, /*satfinite=*/nullptr);
}

void mlir::uta::emitWgmmaStep(OpBuilder &b, Location loc,
                              SmallVectorImpl<Value> &acc,
                              const WgmmaStepOperands &operands,
                              int64_t rowBytes, int64_t kSteps,
                              Type elementType, bool ignoreAcc) {
  bool split = static_cast<bool>(operands.aLow);
  // One descriptor per statement: the IR must not depend on argument
  // evaluation order.
  auto product = [&](Value sum, Value a, int64_t aOffset, Value bTile,
                     int64_t bOffset, bool accumulate) {
    Value aAt = offsetWgmmaDescriptor(b, loc, a, aOffset);
    Value bAt = offsetWgmmaDescriptor(b, loc, bTile, bOffset);
    return emitWgmma(b, loc, sum, aAt, bAt, elementType, accumulate);
  };
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (auto [slab, sum] : llvm::enumerate(acc)) {
    int64_t slabBytes = slab * kWgmmaSlabRows * rowBytes;
    bool accumulate = !split && !ignoreAcc;
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      int64_t kBytes = ks * kWgmmaStepBytes;
      if (split) {
        // The small terms first: they are the smaller addends.
        sum = product(sum, operands.aLow, slabBytes + kBytes, operands.bHigh,
                      kBytes, accumulate);
        sum = product(sum, operands.aHigh, slabBytes + kBytes, operands.bLow,
                      kBytes, true);
        accumulate = true;
      }
      sum = product(sum, operands.aHigh, slabBytes + kBytes, operands.bHigh,
                    kBytes, accumulate);
      accumulate = true;
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
}

Value mlir::uta::emitWgmmaAccumulatorSum(OpBuilder &b, Location loc, Value acc,
                                         Value part) {
  Value sum = acc;
  int64_t size = cast<LLVM::LLVMStructType>(acc.getType()).getBody().size();
  for (int64_t i = 0; i < size; ++i) {
    Value x = LLVM::ExtractValueOp::create(b, loc, acc, i);
    Value y = LLVM::ExtractValueOp::create(b, loc, part, i);
    Value s = arith::AddFOp::create(b, loc, x, y);
    sum = LLVM::InsertValueOp::create(b, loc, sum, s, i);
  }
  return sum;
}

void mlir::uta::emitAsyncProxyFence(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

/// `value`'s bits as i32 (of its shape), and a constant of that type.
static std::pair<Value, std::function<Value(int32_t)>>
getBits(OpBuilder &b, Location loc, Value value) {
  Type bitsType = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    bitsType = VectorType::get(vector.getShape(), bitsType);
  auto constant = [&b, loc, bitsType](int32_t v) -> Value {
    if (auto vector = dyn_cast<VectorType>(bitsType))
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(vector, b.getI32IntegerAttr(v)));
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  return {arith::BitcastOp::create(b, loc, bitsType, value), constant};
}

Value mlir::uta::emitTf32Round(OpBuilder &b, Location loc, Value value) {
  auto [bits, constant] = getBits(b, loc, value);
  bits = arith::AddIOp::create(b, loc, bits, constant(0x1000));
  bits = arith::AndIOp::create(b, loc, bits, constant(~int32_t(0x1fff)));
  return arith::BitcastOp::create(b, loc, value.getType(), bits);
}

Value mlir::uta::emitTf32Truncate(OpBuilder &b, Location loc, Value value) {
  auto [bits, constant] = getBits(b, loc, value);
  bits = arith::AndIOp::create(b, loc, bits, constant(~int32_t(0x1fff)));
  return arith::BitcastOp::create(b, loc, value.getType(), bits);
}

void mlir::uta::emitTf32SplitOrRound(OpBuilder &b, Location loc, Value tiles,
                                     Value stage, Value small, Value threadId,
                                     int64_t numThreads) {
  constexpr int64_t kWidth = 4;
  IndexMath math(b, loc);
  ArrayRef<int64_t> shape = cast<MemRefType>(tiles.getType()).getShape();
  int64_t rows = shape[1], columns = shape[2];
  auto vectorType = VectorType::get({kWidth}, b.getF32Type());
  int64_t vectorsPerRow = columns / kWidth;
  for (int64_t first = 0; first < rows * vectorsPerRow; first += numThreads) {
    Value id = math.add(threadId, first);
    Value row = math.div(id, vectorsPerRow);
    Value column = math.mul(math.rem(id, vectorsPerRow), kWidth);
    Value x = vector::LoadOp::create(b, loc, vectorType, tiles,
                                     ValueRange{stage, row, column});
    if (!small) {
      vector::StoreOp::create(b, loc, emitTf32Round(b, loc, x), tiles,
                              ValueRange{stage, row, column});
      continue;
    }
    Value remainder =
        arith::SubFOp::create(b, loc, x, emitTf32Truncate(b, loc, x));
    SmallVector<Value> at{row, column};
    if (cast<MemRefType>(small.getType()).getRank() == 3)
      at.insert(at.begin(), stage);
    vector::StoreOp::create(b, loc, remainder, small, at);
  }
}

void mlir::uta::emitWgmmaEpilogue(OpBuilder &b, Location loc,
                                  const GemmPlan &plan,
                                  const GemmBlockPosition &block,
                                  Value threadId, ValueRange accumulators,
                                  ElementEpilogue epilogue) {
  const GemmConfig &c = plan.config;
  IndexMath math(b, loc);
  Value lane = math.rem(threadId, 32);
  Value warp = math.rem(math.div(threadId, 32), 4);
  Value g = math.div(lane, 4), t = math.rem(lane, 4);
  Value warpgroupRow = math.mul(math.div(threadId, 128), c.tileM / c.warpsM);
  Value threadRow = math.add(math.add(warpgroupRow, math.mul(warp, 16)), g);
  Value threadColumn = math.mul(t, 2);
  for (auto [slab, acc] : llvm::enumerate(accumulators)) {
    int64_t size = cast<LLVM::LLVMStructType>(acc.getType()).getBody().size();
    for (int64_t i = 0; i < size; ++i) {
      int64_t j = i / 4, q = i % 4;
      Value row = math.add(threadRow, slab * kWgmmaSlabRows + 8 * (q / 2));
      Value column = math.add(threadColumn, 8 * j + q % 2);
      Value value = LLVM::ExtractValueOp::create(b, loc, acc, i);
      emitGemmEpilogueElement(b, loc, plan, block, row, column, value,
                              epilogue);
    }
  }
}
