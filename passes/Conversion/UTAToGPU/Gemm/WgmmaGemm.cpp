//===- WgmmaGemm.cpp - The wgmma schedule of the GEMM engine (sm_90a) -----===//
//
// Hopper's warpgroup MMA. A block of warpsM warpgroups (128 threads each)
// computes a tileM x tileN tile; warpgroup w owns rows [w * tileM / warpsM,
// ...) in slabs of 64 rows, each slab one wgmma accumulator of
// m64 x tileN f32 (an LLVM struct of tileN / 2 values per thread: warp q of
// the warpgroup holds rows 16q + g and 16q + g + 8, columns 8j + 2t and
// 8j + 2t + 1 for lane 4g + t, j = 0 .. tileN / 8 - 1).
//
// Pipeline: the mma.sync schedule's. `stages` shared-memory buffers per
// operand, filled by 16-byte cp.async of every thread; step s waits for
// tile s, makes the copies visible to the tensor cores' (async) proxy,
// passes one barrier, issues the copies of tile s + stages - 1 and runs the
// tile's wgmmas, which it waits for before the next step reuses a buffer.
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
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/SharedTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// Rows of one wgmma accumulator.
constexpr int64_t kSlabRows = 64;
/// Bytes of a tile row: the width of the 128-byte swizzle.
constexpr int64_t kRowBytes = 128;
/// Bytes of one K step of a wgmma (16 f16/bf16 or 8 tf32 elements).
constexpr int64_t kStepBytes = 32;
/// The fixed fields of a shared-memory descriptor: leading byte offset 16
/// (unused by swizzled K-major layouts), 1024 bytes between 8-row groups,
/// 128-byte swizzle (mode 1 in bits 62-63), base offset 0 (1024-byte
/// aligned tiles).
constexpr int64_t kDescriptorFields =
    (int64_t(16 >> 4) << 16) | (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62);

class WgmmaGemmEmitter : GemmScheduleEmitter {
public:
  using GemmScheduleEmitter::GemmScheduleEmitter;

  LogicalResult emit(ElementEpilogue epilogue);

private:
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, index(y));
  }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, index(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, index(y));
  }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }

  void initOperands();
  /// Issues the copies of K tile `step` of both operands into `stage`.
  void copyTiles(Value step, Value stage);
  /// The descriptor of the first 8-row group of `tile` (a stage of a staged
  /// operand, or a remainder tile), at shared-window byte address
  /// `address` (index).
  Value descriptorAt(Value address);
  /// The shared-window address of `buffer`'s first element.
  Value baseAddress(Value buffer);
  /// Rewrites stage `stage` of `operand` element by element, four f32 at a
  /// time: `small` (if given) gets the remainders x - high(x) in the same
  /// layout (3xTF32); otherwise each element is rounded to TF32 in place.
  void splitOrRoundTile(const StagedOperand &operand, Value stage, Value small);
  /// The tile's wgmmas into the accumulators (fresh ones for 3xTF32).
  void computeStage(Value stage, SmallVectorImpl<Value> &acc);
  Value wgmma(Value acc, Value descriptorA, Value descriptorB, bool accumulate);
  /// acc + part, element by element (f32 round to nearest).
  Value addAccumulators(Value acc, Value part);
  void emitEpilogue(ValueRange accumulators, ElementEpilogue epilogue);

  int64_t slabsPerWarpgroup() const { return c.tileM / c.warpsM / kSlabRows; }
  LLVM::LLVMStructType accumulatorType() {
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(c.tileN / 2, b.getF32Type()));
  }

  Value threadId, warpgroup;
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
  a.swizzle = getRowSwizzle(kRowBytes, /*readByLdmatrix=*/true);
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

Value WgmmaGemmEmitter::baseAddress(Value buffer) {
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
}

Value WgmmaGemmEmitter::descriptorAt(Value address) {
  Value bits = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  // Bits 0-13: the address in 16-byte units (shared memory is < 256 KiB).
  bits = arith::ShRUIOp::create(b, loc, bits, i64(4));
  bits = arith::AndIOp::create(b, loc, bits, i64(0x3fff));
  return arith::OrIOp::create(b, loc, bits, i64(kDescriptorFields));
}

Value WgmmaGemmEmitter::wgmma(Value acc, Value descriptorA, Value descriptorB,
                              bool accumulate) {
  NVVM::WGMMATypes type = p.elementType.isBF16()  ? NVVM::WGMMATypes::bf16
                          : p.elementType.isF16() ? NVVM::WGMMATypes::f16
                                                  : NVVM::WGMMATypes::tf32;
  int64_t kStep = kStepBytes / p.getElementBytes();
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, descriptorA, descriptorB,
      NVVM::MMAShapeAttr::get(b.getContext(), kSlabRows, c.tileN, kStep), type,
      type, NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
      // Both operands K-major: A "row", B "col".
      NVVM::MMALayout::row, NVVM::MMALayout::col, /*satfinite=*/nullptr);
}

Value WgmmaGemmEmitter::addAccumulators(Value acc, Value part) {
  Value sum = acc;
  for (int64_t i = 0; i < c.tileN / 2; ++i) {
    Value x = LLVM::ExtractValueOp::create(b, loc, acc, i);
    Value y = LLVM::ExtractValueOp::create(b, loc, part, i);
    Value s = arith::AddFOp::create(b, loc, x, y);
    sum = LLVM::InsertValueOp::create(b, loc, sum, s, i);
  }
  return sum;
}

void WgmmaGemmEmitter::splitOrRoundTile(const StagedOperand &operand,
                                        Value stage, Value small) {
  // Element positions are kept, so the swizzle carries over unchanged.
  constexpr int64_t kWidth = 4;
  auto vectorType = VectorType::get({kWidth}, b.getF32Type());
  auto bitsType = VectorType::get({kWidth}, b.getI32Type());
  auto splat = [&](int32_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(bitsType, b.getI32IntegerAttr(v)));
  };
  Value highMask = splat(~int32_t(0x1fff));
  int64_t vectorsPerRow = operand.columns / kWidth;
  int64_t threads = c.getNumThreads();
  for (int64_t first = 0; first < operand.rows * vectorsPerRow;
       first += threads) {
    Value id = add(threadId, first);
    Value row = div(id, vectorsPerRow);
    Value column = mul(rem(id, vectorsPerRow), kWidth);
    Value x = vector::LoadOp::create(b, loc, vectorType, operand.buffer,
                                     ValueRange{stage, row, column});
    Value bits = arith::BitcastOp::create(b, loc, bitsType, x);
    if (!small) {
      // Adding half a TF32 ulp to the magnitude bits and dropping the 13 low
      // mantissa bits rounds to nearest, ties away from zero.
      bits = arith::AddIOp::create(b, loc, bits, splat(0x1000));
      Value rounded = arith::BitcastOp::create(
          b, loc, vectorType, arith::AndIOp::create(b, loc, bits, highMask));
      vector::StoreOp::create(b, loc, rounded, operand.buffer,
                              ValueRange{stage, row, column});
      continue;
    }
    Value high = arith::BitcastOp::create(
        b, loc, vectorType, arith::AndIOp::create(b, loc, bits, highMask));
    Value remainder = arith::SubFOp::create(b, loc, x, high);
    vector::StoreOp::create(b, loc, remainder, small, ValueRange{row, column});
  }
}

void WgmmaGemmEmitter::computeStage(Value stage, SmallVectorImpl<Value> &acc) {
  int64_t bytes = p.getElementBytes();
  int64_t aStageBytes = c.tileM * c.tileK * bytes;
  int64_t bStageBytes = c.tileN * c.tileK * bytes;
  int64_t warpgroupRows = c.tileM / c.warpsM;
  // This warpgroup's first row of the tile, in bytes of a tile.
  Value slabOffset = mul(warpgroup, warpgroupRows * kRowBytes);
  Value aStage = add(baseAddress(a.buffer), mul(stage, aStageBytes));
  Value bStage = add(baseAddress(bOperand.buffer), mul(stage, bStageBytes));
  Value aHigh = descriptorAt(add(aStage, slabOffset));
  Value bHigh = descriptorAt(bStage);
  Value aLow, bLow;
  if (plan.precision == GemmPrecision::Tf32x3) {
    aLow = descriptorAt(add(baseAddress(aSmall), slabOffset));
    bLow = descriptorAt(baseAddress(bSmall));
  }
  // Offsets inside a tile, in the descriptor's 16-byte units.
  auto at = [&](Value descriptor, int64_t byteOffset) -> Value {
    if (!byteOffset)
      return descriptor;
    return arith::AddIOp::create(b, loc, descriptor, i64(byteOffset >> 4));
  };
  bool fresh = plan.precision == GemmPrecision::Tf32x3;
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t slab = 0; slab < slabsPerWarpgroup(); ++slab) {
    int64_t slabBytes = slab * kSlabRows * kRowBytes;
    bool accumulate = !fresh;
    for (int64_t ks = 0; ks < c.tileK * bytes / kStepBytes; ++ks) {
      int64_t kBytes = ks * kStepBytes;
      if (plan.precision == GemmPrecision::Tf32x3) {
        // The small terms first: they are the smaller addends.
        acc[slab] = wgmma(acc[slab], at(aLow, slabBytes + kBytes),
                          at(bHigh, kBytes), accumulate);
        acc[slab] = wgmma(acc[slab], at(aHigh, slabBytes + kBytes),
                          at(bLow, kBytes), true);
        accumulate = true;
      }
      acc[slab] = wgmma(acc[slab], at(aHigh, slabBytes + kBytes),
                        at(bHigh, kBytes), accumulate);
      accumulate = true;
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
}

void WgmmaGemmEmitter::emitEpilogue(ValueRange accumulators,
                                    ElementEpilogue epilogue) {
  Value lane = rem(threadId, 32);
  Value warp = rem(div(threadId, 32), 4);
  Value g = div(lane, 4), t = rem(lane, 4);
  Value warpgroupRow = mul(warpgroup, c.tileM / c.warpsM);
  Value threadRow = add(add(warpgroupRow, mul(warp, 16)), g);
  Value threadColumn = mul(t, 2);
  for (auto [slab, acc] : llvm::enumerate(accumulators))
    for (int64_t i = 0; i < c.tileN / 2; ++i) {
      // Registers 4j .. 4j + 3: (g, 2t), (g, 2t + 1), (g + 8, 2t),
      // (g + 8, 2t + 1) of columns 8j ...
      int64_t j = i / 4, q = i % 4;
      Value row = add(threadRow, slab * kSlabRows + 8 * (q / 2));
      Value column = add(threadColumn, 8 * j + q % 2);
      Value value = LLVM::ExtractValueOp::create(b, loc, acc, i);
      emitGemmEpilogueElement(b, loc, plan, block, row, column, value,
                              epilogue);
    }
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
  // 128-byte-swizzled tiles must start at 1024-byte boundaries.
  constexpr int64_t kTileAlignment = 1024;
  for (StagedOperand *operand : {&a, &bOperand})
    operand->buffer = io.allocateWorkgroupBuffer(
        b, loc, {c.stages, operand->rows, operand->columns}, p.elementType,
        kTileAlignment);
  if (plan.precision == GemmPrecision::Tf32x3) {
    aSmall = io.allocateWorkgroupBuffer(b, loc, {a.rows, a.columns},
                                        p.elementType, kTileAlignment);
    bSmall =
        io.allocateWorkgroupBuffer(b, loc, {bOperand.rows, bOperand.columns},
                                   p.elementType, kTileAlignment);
  }

  int64_t steps = llvm::divideCeil(p.k, c.tileK);
  for (int64_t s = 0; s + 1 < c.stages; ++s) {
    if (s < steps)
      copyTiles(index(s), index(s));
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType());
  SmallVector<Value> zeros(slabsPerWarpgroup(), zero);
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(steps), index(1), zeros,
      [&](OpBuilder &nb, Location, Value step, ValueRange accumulators) {
        OpBuilder::InsertionGuard insertion(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        NVVM::CpAsyncWaitGroupOp::create(b, loc, c.stages - 2);
        // cp.async writes through the generic proxy; wgmma reads through
        // the async proxy.
        auto fenceForTensorCores = [&] {
          NVVM::FenceProxyOp::create(
              b, loc, NVVM::ProxyKind::async_shared,
              NVVM::SharedSpaceAttr::get(b.getContext(),
                                         NVVM::SharedSpace::shared_cta));
        };
        fenceForTensorCores();
        gpu::BarrierOp::create(b, loc);
        Value next = add(step, c.stages - 1);
        auto issue = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                  index(steps)),
            false);
        {
          OpBuilder::InsertionGuard inIf(b);
          b.setInsertionPointToStart(issue.thenBlock());
          copyTiles(next, rem(next, c.stages));
        }
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
        Value stage = rem(step, c.stages);
        SmallVector<Value> acc(accumulators);
        if (plan.precision == GemmPrecision::Tf32 ||
            plan.precision == GemmPrecision::Tf32x3) {
          splitOrRoundTile(a, stage, aSmall);
          splitOrRoundTile(bOperand, stage, bSmall);
          fenceForTensorCores();
          gpu::BarrierOp::create(b, loc);
        }
        if (plan.precision == GemmPrecision::Tf32x3) {
          SmallVector<Value> tile(acc.size(), zero);
          computeStage(stage, tile);
          for (auto [sum, part] : llvm::zip_equal(acc, tile))
            sum = addAccumulators(sum, part);
        } else {
          computeStage(stage, acc);
        }
        scf::YieldOp::create(b, loc, acc);
      });
  // Only empty groups can be pending here; leave none behind.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  emitEpilogue(loop.getResults(), epilogue);
  return success();
}

LogicalResult mlir::uta::emitWgmmaGemm(OpBuilder &b, Location loc,
                                       const GemmPlan &plan, KernelIO &io,
                                       ElementEpilogue epilogue) {
  return WgmmaGemmEmitter(b, loc, plan, io).emit(epilogue);
}
