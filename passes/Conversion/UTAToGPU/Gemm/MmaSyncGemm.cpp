//===- MmaSyncGemm.cpp - The mma.sync schedule of the GEMM engine ---------===//
//
// CUDA sm_80 and up. A block of warpsM x warpsN warps computes a tileM x
// tileN tile; each warp a (tileM / warpsM) x (tileN / warpsN) warp tile of
// m16n8 accumulators (vector<2x2xf32> per thread: rows g and g + 8, columns
// 2t and 2t + 1 of its 16x8, for lane = 4g + t).
//
// Pipeline: `stages` shared-memory buffers per operand. Before the K loop,
// the copies of the first stages - 1 K tiles are issued, one cp.async group
// each. Step s waits until at most stages - 2 groups are pending (so tile s
// has landed), passes one barrier (every thread's copies of tile s have
// landed, and every warp is done with tile s - 1, whose buffer is reused),
// issues the copies of tile s + stages - 1 (an empty group past the end),
// and computes tile s. One barrier per step.
//
// Shared memory: A tiles [tileM][tileK], or [tileK][tileM] when A is
// M-contiguous (transpose_a); B tiles [tileN][tileK] when B is K-contiguous
// (transpose_b) or [tileK][tileN]; rows are XOR-swizzled at 16-byte
// granularity so that ldmatrix's eight row reads and the cp.async writes hit
// distinct banks. Fragments come from ldmatrix (x4, .trans for a 16-bit
// operand that is M- or N-contiguous) except a f32 operand that is M- or
// N-contiguous, which ldmatrix cannot transpose: plain 32-bit shared loads.
//
// Operands whose rows are not 16-byte aligned are copied element by element
// (synchronous loads, same buffers and barriers); elements past M, N or K
// are zeros (cp.async's zero fill, or stored zeros).
//
// f32: Tf32 rounds each fragment to TF32 (round to nearest, ties away, as
// cvt.rna.tf32.f32); Tf32x3 splits x into big = tf32(x) and small =
// tf32(x - big) and accumulates small*big + big*small + big*big, which
// keeps about 21 bits of each product, and sums each K tile apart from the
// running accumulator (see the K loop): f32 accuracy.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/MmaSyncGemm.h"
#include "passes/Conversion/UTAToGPU/Gemm/StageRing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

void MmaSyncGemmEmitter::copyTile(StagedOperand &operand, Value step,
                                  Value stage) {
  // Which of the tile's two axes is K, and the tile's origin in the operand.
  bool rowsAreK = &operand == &a ? p.transposeA : !p.transposeB;
  Value k0 = mul(step, c.tileK);
  Value origin = &operand == &a ? block.row : block.column;
  Value rowOrigin = rowsAreK ? k0 : origin;
  Value columnOrigin = rowsAreK ? origin : k0;
  copyTileAt(operand, rowOrigin, columnOrigin, stage, /*enabled=*/nullptr);
}

Value MmaSyncGemmEmitter::rowsOf(Value vector, int64_t first, int64_t count) {
  auto type = cast<VectorType>(vector.getType());
  auto resultType =
      VectorType::get({count, type.getDimSize(1)}, type.getElementType());
  Value result = ub::PoisonOp::create(b, loc, resultType);
  for (int64_t i = 0; i < count; ++i)
    result = vector::InsertOp::create(
        b, loc, vector::ExtractOp::create(b, loc, vector, first + i), result,
        i);
  return result;
}

Value MmaSyncGemmEmitter::loadA(const StagedOperand &operand, Value stage,
                                int64_t mi, int64_t ks) {
  bool half = p.getElementBytes() == 2;
  int64_t kStep = half ? 16 : 8;
  int64_t warpRows = c.tileM / c.warpsM;
  // Lanes 0-15 address rows 0-15 at k 0, lanes 16-31 rows 0-15 at k + kStep/2.
  // One op per statement: the IR must not depend on argument evaluation
  // order.
  Value warpFirstRow = add(mul(warpRow, warpRows), mi * 16);
  Value row = add(warpFirstRow, rem(lane, 16));
  Value column = add(mul(div(lane, 16), kStep / 2), ks * kStep);
  auto type = VectorType::get({4, half ? 2 : 1}, p.elementType);
  return nvgpu::LdMatrixOp::create(
      b, loc, type, operand.buffer,
      ValueRange{stage, row, swizzleColumn(operand, row, column)},
      /*transpose=*/false, /*numTiles=*/4);
}

Value MmaSyncGemmEmitter::loadATransposed(const StagedOperand &operand,
                                          Value stage, int64_t mi, int64_t ks) {
  int64_t warpRows = c.tileM / c.warpsM;
  Value firstRow = add(mul(warpRow, warpRows), mi * 16);
  if (p.getElementBytes() == 2) {
    // [k][m], transposed on load: matrices (m 0-7, k 0-7), (m 8-15, k 0-7),
    // (m 0-7, k 8-15), (m 8-15, k 8-15), lanes 8q to 8q + 7 addressing the
    // eight k rows of matrix q.
    Value matrix = div(lane, 8);
    Value k = add(add(rem(lane, 8), mul(div(matrix, 2), 8)), ks * 16);
    Value m = add(firstRow, mul(rem(matrix, 2), 8));
    auto type = VectorType::get({4, 2}, p.elementType);
    return nvgpu::LdMatrixOp::create(
        b, loc, type, operand.buffer,
        ValueRange{stage, k, swizzleColumn(operand, k, m)},
        /*transpose=*/true, /*numTiles=*/4);
  }
  // a0 = A[g][t], a1 = A[g + 8][t], a2 = A[g][t + 4], a3 = A[g + 8][t + 4]
  // of the m16k8 tile, A[m][k] stored at [k][m]: plain shared loads, which
  // ldmatrix cannot transpose for 32-bit elements.
  Value g = div(lane, 4), t = rem(lane, 4);
  Value laneRow = add(firstRow, g);
  auto type = VectorType::get({4, 1}, p.elementType);
  Value result = ub::PoisonOp::create(b, loc, type);
  for (int64_t q = 0; q < 4; ++q) {
    Value k = add(t, ks * 8 + (q / 2) * 4);
    Value m = add(laneRow, (q % 2) * 8);
    Value value = memref::LoadOp::create(
        b, loc, operand.buffer,
        ValueRange{stage, k, swizzleColumn(operand, k, m)});
    result = vector::InsertOp::create(b, loc, value, result,
                                      ArrayRef<int64_t>{q, 0});
  }
  return result;
}

std::pair<Value, Value> MmaSyncGemmEmitter::loadBPair(Value stage, int64_t nj,
                                                      int64_t ks) {
  bool half = p.getElementBytes() == 2;
  int64_t kStep = half ? 16 : 8;
  int64_t warpColumns = c.tileN / c.warpsN;
  Value n0 = add(mul(warpColumn, warpColumns), nj * 8);
  if (p.transposeB) {
    // [n][k]: matrices (n 0-7, k lo), (n 0-7, k hi), (n 8-15, k lo),
    // (n 8-15, k hi).
    Value laneRow = add(n0, rem(lane, 8));
    Value row = add(laneRow, mul(div(lane, 16), 8));
    Value column = add(mul(rem(div(lane, 8), 2), kStep / 2), ks * kStep);
    auto type = VectorType::get({4, half ? 2 : 1}, p.elementType);
    Value four = nvgpu::LdMatrixOp::create(
        b, loc, type, bOperand.buffer,
        ValueRange{stage, row, swizzleColumn(bOperand, row, column)},
        /*transpose=*/false, /*numTiles=*/4);
    return {rowsOf(four, 0, 2), rowsOf(four, 2, 2)};
  }
  if (half) {
    // [k][n], transposed on load: matrices (k 0-7, n 0-7), (k 8-15, n 0-7),
    // (k 0-7, n 8-15), (k 8-15, n 8-15).
    Value laneRow = rem(lane, 8);
    Value row = add(add(laneRow, mul(rem(div(lane, 8), 2), 8)), ks * kStep);
    Value column = add(n0, mul(div(lane, 16), 8));
    auto type = VectorType::get({4, 2}, p.elementType);
    Value four = nvgpu::LdMatrixOp::create(
        b, loc, type, bOperand.buffer,
        ValueRange{stage, row, swizzleColumn(bOperand, row, column)},
        /*transpose=*/true, /*numTiles=*/4);
    return {rowsOf(four, 0, 2), rowsOf(four, 2, 2)};
  }
  // f32 [k][n]: b0 = B[t][g], b1 = B[t + 4][g] of each n8 tile.
  Value g = div(lane, 4), t = rem(lane, 4);
  auto fragmentType = VectorType::get({2, 1}, p.elementType);
  auto fragment = [&](int64_t tile) {
    Value result = ub::PoisonOp::create(b, loc, fragmentType);
    Value column = add(add(n0, tile * 8), g);
    for (int64_t half = 0; half < 2; ++half) {
      Value row = add(t, ks * kStep + half * 4);
      Value value = memref::LoadOp::create(
          b, loc, bOperand.buffer,
          ValueRange{stage, row, swizzleColumn(bOperand, row, column)});
      result = vector::InsertOp::create(b, loc, value, result,
                                        ArrayRef<int64_t>{half, 0});
    }
    return result;
  };
  return {fragment(0), fragment(1)};
}

Value MmaSyncGemmEmitter::roundToTf32(Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto intType = VectorType::get(type.getShape(), b.getI32Type());
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(intType, b.getI32IntegerAttr(v)));
  };
  // Adding half a TF32 ulp to the magnitude bits and dropping the 13 low
  // mantissa bits rounds to nearest, ties away from zero.
  Value bits = arith::BitcastOp::create(b, loc, intType, fragment);
  bits = arith::AddIOp::create(b, loc, bits, splat(0x1000));
  bits = arith::AndIOp::create(b, loc, bits, splat(~int64_t(0x1fff)));
  return arith::BitcastOp::create(b, loc, type, bits);
}

Value MmaSyncGemmEmitter::mma(Value aFragment, Value bFragment, Value acc) {
  bool half = p.getElementBytes() == 2;
  if (p.elementType.isBF16())
    return mmaBf16(aFragment, bFragment, acc);
  return nvgpu::MmaSyncOp::create(b, loc, aFragment, bFragment, acc,
                                  ArrayRef<int64_t>{16, 8, half ? 16 : 8},
                                  /*tf32Enabled=*/!half);
}

void MmaSyncGemmEmitter::computeStage(Value stage,
                                      SmallVectorImpl<Value> &acc) {
  bool half = p.getElementBytes() == 2;
  int64_t kStep = half ? 16 : 8;
  int64_t mTiles = c.tileM / c.warpsM / 16, nTiles = c.tileN / c.warpsN / 8;
  for (int64_t ks = 0; ks < c.tileK / kStep; ++ks) {
    SmallVector<Value> aFragments, bFragments;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      aFragments.push_back(aFragment(stage, mi, ks));
    for (int64_t nj = 0; nj < nTiles; nj += 2) {
      auto [first, second] = loadBPair(stage, nj, ks);
      bFragments.append({first, second});
    }
    SmallVector<Value> aSmall, bSmall;
    switch (plan.precision) {
    case GemmPrecision::Half:
    case GemmPrecision::F32:
      break;
    case GemmPrecision::Tf32:
      for (Value &f : llvm::concat<Value>(aFragments, bFragments))
        f = roundToTf32(f);
      break;
    case GemmPrecision::Tf32x3:
      for (auto [fragments, smalls] :
           {std::pair{&aFragments, &aSmall}, std::pair{&bFragments, &bSmall}})
        for (Value &f : *fragments) {
          Value big = roundToTf32(f);
          smalls->push_back(roundToTf32(arith::SubFOp::create(b, loc, f, big)));
          f = big;
        }
      break;
    }
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ni = 0; ni < nTiles; ++ni) {
        Value &sum = acc[mi * nTiles + ni];
        // The small terms first: they are the smaller addends.
        if (plan.precision == GemmPrecision::Tf32x3) {
          sum = mma(aSmall[mi], bFragments[ni], sum);
          sum = mma(aFragments[mi], bSmall[ni], sum);
        }
        sum = mma(aFragments[mi], bFragments[ni], sum);
      }
  }
}

Value MmaSyncGemmEmitter::mmaBf16(Value aFragment, Value bFragment, Value acc) {
  // Registers of two bf16 each, as the instruction takes them.
  auto registers = [&](Value fragment) {
    SmallVector<Value> words;
    auto rows = cast<VectorType>(fragment.getType()).getDimSize(0);
    auto wordType = VectorType::get({1}, b.getI32Type());
    for (int64_t row = 0; row < rows; ++row) {
      Value pair = vector::ExtractOp::create(b, loc, fragment, row);
      Value word = vector::BitCastOp::create(b, loc, wordType, pair);
      words.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
    return words;
  };
  SmallVector<Value> accumulators;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      accumulators.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value result = NVVM::MmaOp::create(
      b, loc, resultType, registers(aFragment), registers(bFragment),
      accumulators, ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value sum = ub::PoisonOp::create(b, loc, acc.getType());
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      sum = vector::InsertOp::create(
          b, loc, LLVM::ExtractValueOp::create(b, loc, result, 2 * i + j), sum,
          ArrayRef<int64_t>{i, j});
  return sum;
}

void MmaSyncGemmEmitter::emitThreadPosition() {
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = div(threadId, 32);
  lane = rem(threadId, 32);
  warpRow = div(warp, c.warpsN);
  warpColumn = rem(warp, c.warpsN);
  block = emitGemmBlockPosition(b, loc, plan);
}

void MmaSyncGemmEmitter::initOperands() {
  unsigned bytes = p.getElementBytes();
  a.rows = p.transposeA ? c.tileK : c.tileM;
  a.columns = p.transposeA ? c.tileM : c.tileK;
  a.batch = block.lhsBatch;
  a.globalRows = p.transposeA ? p.k : p.m;
  a.globalColumns = p.transposeA ? p.m : p.k;
  a.asyncCopy = plan.asyncCopyA;
  a.swizzle = getRowSwizzle(a.columns * bytes, !p.transposeA || bytes == 2);
  bOperand.rows = p.transposeB ? c.tileN : c.tileK;
  bOperand.columns = p.transposeB ? c.tileK : c.tileN;
  bOperand.batch = block.rhsBatch;
  bOperand.globalRows = p.transposeB ? p.n : p.k;
  bOperand.globalColumns = p.transposeB ? p.k : p.n;
  bOperand.asyncCopy = plan.asyncCopyB;
  bOperand.swizzle =
      getRowSwizzle(bOperand.columns * bytes, p.transposeB || bytes == 2);
}

void MmaSyncGemmEmitter::initStagedOperands() {
  initOperands();
  for (StagedOperand *operand : {&a, &bOperand})
    operand->buffer = io.allocateWorkgroupBuffer(
        b, loc, {c.stages, operand->rows, operand->columns}, p.elementType);
  aFragment = [&](Value stage, int64_t mi, int64_t ks) {
    return p.transposeA ? loadATransposed(a, stage, mi, ks)
                        : loadA(a, stage, mi, ks);
  };
}

SmallVector<Value> MmaSyncGemmEmitter::getZeroAccumulators() {
  int64_t mTiles = c.tileM / c.warpsM / 16, nTiles = c.tileN / c.warpsN / 8;
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0f)));
  return SmallVector<Value>(mTiles * nTiles, zero);
}

SmallVector<Value> MmaSyncGemmEmitter::emitMainLoop(
    Value steps, function_ref<void(Value, Value)> copyStep,
    function_ref<void(Value, Value, SmallVectorImpl<Value> &)> computeStep,
    int64_t extraAccumulators,
    function_ref<void(Value, SmallVectorImpl<Value> &)> afterStep) {
  SmallVector<Value> zeros = getZeroAccumulators();
  size_t tileAccumulators = zeros.size();
  zeros.append(extraAccumulators, zeros.front());
  CpAsyncRing ring;
  ring.stages = c.stages;
  ring.ahead = c.stages - 1;
  SmallVector<Value> results = emitCpAsyncMainLoop(
      b, loc, ring, steps, zeros, copyStep,
      [&](Value step, Value stage, SmallVectorImpl<Value> &all) {
        SmallVector<Value> acc(all.begin(), all.begin() + tileAccumulators);
        if (plan.precision == GemmPrecision::Tf32x3) {
          // Tensor cores add into their accumulator rounding toward zero,
          // which over thousands of steps biases the sum by about 1e-4:
          // each K tile sums into fresh accumulators, added to the running
          // ones with round-to-nearest f32 adds.
          SmallVector<Value> tile(acc.size(), zeros.front());
          computeStep(step, stage, tile);
          for (auto [sum, part] : llvm::zip_equal(acc, tile))
            sum = arith::AddFOp::create(b, loc, sum, part);
        } else {
          computeStep(step, stage, acc);
        }
        llvm::copy(acc, all.begin());
        if (afterStep)
          afterStep(step, all);
      });
  // Only empty groups can be pending here; leave none behind.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  return results;
}

void MmaSyncGemmEmitter::forEachAccumulatorElement(
    function_ref<void(int64_t, int64_t, int64_t, Value, Value)> element) {
  int64_t mTiles = c.tileM / c.warpsM / 16, nTiles = c.tileN / c.warpsN / 8;
  int64_t warpRows = c.tileM / c.warpsM, warpColumns = c.tileN / c.warpsN;
  Value g = div(lane, 4), t = rem(lane, 4);
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          Value row = add(add(mul(warpRow, warpRows), mi * 16 + 8 * i), g);
          Value tileColumn = add(mul(warpColumn, warpColumns), ni * 8 + j);
          Value column = add(tileColumn, mul(t, 2));
          element(mi * nTiles + ni, i, j, row, column);
        }
}

void MmaSyncGemmEmitter::emitEpilogue(ValueRange accumulators,
                                      ElementEpilogue epilogue) {
  forEachAccumulatorElement([&](int64_t tile, int64_t i, int64_t j, Value row,
                                Value column) {
    Value value = vector::ExtractOp::create(b, loc, accumulators[tile],
                                            ArrayRef<int64_t>{i, j});
    emitGemmEpilogueElement(b, loc, plan, block, row, column, value, epilogue);
  });
}

LogicalResult MmaSyncGemmEmitter::emit(ElementEpilogue epilogue) {
  a.global = io.getOperandBuffer(0);
  bOperand.global = io.getOperandBuffer(1);
  if (!a.global || !bOperand.global)
    return emitError(loc, "the mma.sync GEMM reads its operands from buffers");
  emitThreadPosition();
  initStagedOperands();
  SmallVector<Value> accumulators = emitMainLoop(
      index(llvm::divideCeil(p.k, c.tileK)),
      [&](Value step, Value stage) { copyTiles(step, stage); },
      [&](Value, Value stage, SmallVectorImpl<Value> &acc) {
        computeStage(stage, acc);
      });
  emitEpilogue(accumulators, epilogue);
  return success();
}

LogicalResult mlir::uta::emitMmaSyncGemm(OpBuilder &b, Location loc,
                                         const GemmPlan &plan, KernelIO &io,
                                         ElementEpilogue epilogue) {
  return MmaSyncGemmEmitter(b, loc, plan, io).emit(epilogue);
}
