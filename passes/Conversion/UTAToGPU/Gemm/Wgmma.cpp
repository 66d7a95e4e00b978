//===- Wgmma.cpp - Building blocks of the wgmma schedules -----------------===//

#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

Value mlir::uta::emitWgmmaTf32RegisterA(OpBuilder &b, Location loc, Value acc,
                                        ArrayRef<Value> fragment,
                                        Value descriptorB, bool accumulate) {
  assert(fragment.size() == 4 && "a TF32 A fragment is four registers");
  // nvvm.wgmma.mma_async takes A by descriptor only, so this form is
  // spelled out: the accumulators are outputs tied to inputs, then A's
  // registers (bits: PTX wants .b32), B's descriptor and the scale-d
  // predicate's immediate.
  int64_t registers =
      cast<LLVM::LLVMStructType>(acc.getType()).getBody().size();
  std::string code;
  llvm::raw_string_ostream os(code);
  std::string constraints;
  llvm::raw_string_ostream cs(constraints);
  SmallVector<Value> operands;
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << 2 * registers + 5
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << 2 * registers
     << "k8.f32.tf32.tf32 {";
  for (int64_t i = 0; i < registers; ++i) {
    os << (i ? ", $" : "$") << i;
    cs << "=f,";
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, acc, i));
  }
  for (int64_t i = 0; i < registers; ++i)
    cs << i << ",";
  os << "}, {";
  for (auto [i, value] : llvm::enumerate(fragment)) {
    os << (i ? ", $" : "$") << 2 * registers + i;
    cs << "r,";
    operands.push_back(arith::BitcastOp::create(b, loc, b.getI32Type(), value));
  }
  os << "}, $" << 2 * registers + 4 << ", p, 1, 1;\n}";
  cs << "l,n";
  operands.push_back(descriptorB);
  operands.push_back(arith::ConstantIntOp::create(b, loc, accumulate, 32));
  // Side effects: the wgmma must stay between its fence and commit.
  return LLVM::InlineAsmOp::create(
             b, loc, acc.getType(), operands, code, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

Value mlir::uta::emitRegisterAHoldWords(OpBuilder &b, Location loc,
                                        KernelIO &io, int64_t fragments) {
  // Words for every thread (the stores that run are a harmless race), one
  // per fragment: ptxas drops a store that a later one to the same address
  // overwrites, and with it the hold of its registers.
  Value words =
      io.allocateWorkgroupBuffer(b, loc, {4 * fragments}, b.getF32Type(), 16);
  return emitSharedAddress(b, loc, words);
}

void mlir::uta::emitRegisterAHold(OpBuilder &b, Location loc, int64_t inFlight,
                                  ArrayRef<Tf32Fragment> fragments,
                                  Value words) {
  // Each register is the operand of a store, which ptxas keeps after the
  // wait before it (stores after a wait_group may overwrite what the
  // completed wgmmas read): a register read by arithmetic could be read
  // before the wait and freed there. One branch on a clock value ptxas
  // cannot know skips the stores, so they almost never run; where they do,
  // they write words that nothing reads. Inline PTX, so that LLVM drops
  // none of it; ${:uid} makes the label unique per hold.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, inFlight);
  std::string code;
  llvm::raw_string_ostream os(code);
  std::string constraints = "r";
  SmallVector<Value> operands{
      arith::IndexCastUIOp::create(b, loc, b.getI32Type(), words)};
  os << "{\n.reg .pred p;\n.reg .b32 c;\nmov.u32 c, %clock;\n"
        "setp.ne.u32 p, c, 0;\n@p bra HOLD_${:uid};\n";
  for (auto [f, fragment] : llvm::enumerate(fragments)) {
    os << "st.shared.v4.b32 [$0+" << 16 * f << "], {";
    for (auto [i, x] : llvm::enumerate(fragment)) {
      os << (i ? ", $" : "$") << operands.size();
      constraints += ",r";
      operands.push_back(arith::BitcastOp::create(b, loc, b.getI32Type(), x));
    }
    os << "};\n";
  }
  os << "HOLD_${:uid}:\n}";
  LLVM::InlineAsmOp::create(
      b, loc, /*res=*/TypeRange(), operands, code, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

SmallVector<Value>
mlir::uta::emitPairedStepLoop(OpBuilder &b, Location loc, Value count,
                              ValueRange initial, ValueRange initialPending,
                              PairedStep step,
                              SmallVectorImpl<Value> &lastPending) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  size_t stateSize = initial.size();
  SmallVector<Value> carried(initial);
  carried.append(initialPending.begin(), initialPending.end());
  Value pairs = arith::DivUIOp::create(b, loc, count, index(2));
  auto loop = scf::ForOp::create(
      b, loc, index(0), pairs, index(1), carried,
      [&](OpBuilder &nb, Location, Value pair, ValueRange values) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(nb.getInsertionBlock());
        Value even = arith::MulIOp::create(b, loc, pair, index(2));
        Value odd = arith::AddIOp::create(b, loc, even, index(1));
        SmallVector<Value> evenPending, oddPending;
        SmallVector<Value> state =
            step(even, values.take_front(stateSize),
                 values.drop_front(stateSize), evenPending);
        state = step(odd, state, evenPending, oddPending);
        state.append(oddPending);
        scf::YieldOp::create(b, loc, state);
      });
  ValueRange results = loop.getResults();
  // An odd count's last step.
  Value isOdd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, count, index(2)), index(0));
  auto branch = scf::IfOp::create(b, loc, results.getTypes(), isOdd,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    Value last = arith::SubIOp::create(b, loc, count, index(1));
    SmallVector<Value> pending;
    SmallVector<Value> yielded = step(last, results.take_front(stateSize),
                                      results.drop_front(stateSize), pending);
    yielded.append(pending);
    scf::YieldOp::create(b, loc, yielded);
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(b, loc, results);
  }
  ValueRange final = branch.getResults();
  lastPending.assign(final.begin() + stateSize, final.end());
  return SmallVector<Value>(final.take_front(stateSize));
}

SmallVector<Value>
mlir::uta::emitRegisterAStepLoop(OpBuilder &b, Location loc, Value count,
                                 ValueRange initial, int64_t fragments,
                                 RegisterAStep step,
                                 SmallVectorImpl<Tf32Fragment> &lastIssued) {
  auto flatten = [](ArrayRef<Tf32Fragment> set) {
    SmallVector<Value> values;
    for (const Tf32Fragment &fragment : set)
      values.append(fragment.begin(), fragment.end());
    return values;
  };
  auto unflatten = [](ValueRange values) {
    SmallVector<Tf32Fragment> set;
    for (size_t i = 0; i < values.size(); i += 4)
      set.emplace_back(values.begin() + i, values.begin() + i + 4);
    return set;
  };
  // The set held before the first step: zeros (nothing is in flight).
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<Value> initialSet(4 * fragments, zero), last;
  SmallVector<Value> state = emitPairedStepLoop(
      b, loc, count, initial, initialSet,
      [&](Value index, ValueRange current, ValueRange held,
          SmallVectorImpl<Value> &pending) {
        SmallVector<Tf32Fragment> issued;
        SmallVector<Value> next = step(index, current, unflatten(held), issued);
        pending = flatten(issued);
        return next;
      },
      last);
  lastIssued = unflatten(last);
  return state;
}

/// Where a thread's fragment elements lie in its warpgroup's 64-row slabs
/// (accumulators and TF32 A alike): lane 4g + t of warp q holds rows
/// 16q + g and 16q + g + 8.
struct FragmentLane {
  Value warp, g, t;
  /// `base` + 16q + g.
  Value getRow(IndexMath &math, Value base) const {
    return math.add(math.add(base, math.mul(warp, 16)), g);
  }
};
static FragmentLane getFragmentLane(IndexMath &math, Value thread) {
  Value lane = math.rem(thread, 32);
  Value warp = math.rem(math.div(thread, 32), 4);
  Value g = math.div(lane, 4), t = math.rem(lane, 4);
  return {warp, g, t};
}

SmallVector<Tf32Fragment>
mlir::uta::emitLoadTf32Fragments(OpBuilder &b, Location loc, Value tiles,
                                 Value stage, Value firstRow,
                                 Value warpgroupThread, int64_t slabs) {
  constexpr int64_t kElementsPerChunk = 16 / 4;
  constexpr int64_t kStepColumns = kWgmmaStepBytes / 4;
  ArrayRef<int64_t> shape = cast<MemRefType>(tiles.getType()).getShape();
  assert(shape[2] * 4 == kWgmmaRowBytes && "K tiles of 128-byte rows");
  IndexMath math(b, loc);
  // One ldmatrix of four 8x8 b16 matrices per fragment: a matrix row is a
  // 16-byte chunk (four f32), and lane l receives word l % 4 of row l / 4
  // of each, which is the TF32 fragment's layout. Matrix i is register i:
  // rows + 8 (i % 2), chunk + i / 2. Lane l addresses row l % 8 of matrix
  // l / 8; as rows start past a multiple of 8, the 128-byte swizzle moves
  // chunk c of that row to c ^ (l % 8).
  Value lane = math.rem(warpgroupThread, 32);
  Value warp = math.rem(math.div(warpgroupThread, 32), 4);
  Value matrix = math.div(lane, 8);
  Value matrixRow = math.rem(lane, 8);
  Value laneRow =
      math.add(math.add(firstRow, math.mul(warp, 16)),
               math.add(matrixRow, math.mul(math.rem(matrix, 2), 8)));
  Value chunkOffset = math.div(matrix, 2);
  auto type = VectorType::get({4, 1}, b.getF32Type());
  SmallVector<Tf32Fragment> fragments;
  for (int64_t slab = 0; slab < slabs; ++slab) {
    Value row = math.add(laneRow, slab * kWgmmaSlabRows);
    for (int64_t ks = 0; ks < shape[2] / kStepColumns; ++ks) {
      Value chunk =
          math.add(chunkOffset, ks * kStepColumns / kElementsPerChunk);
      Value swizzledChunk = arith::XOrIOp::create(b, loc, chunk, matrixRow);
      Value column = math.mul(swizzledChunk, kElementsPerChunk);
      Value four = nvgpu::LdMatrixOp::create(
          b, loc, type, tiles, ValueRange{stage, row, column},
          /*transpose=*/false, /*numTiles=*/4);
      Tf32Fragment fragment;
      for (int64_t i = 0; i < 4; ++i)
        fragment.push_back(
            vector::ExtractOp::create(b, loc, four, ArrayRef<int64_t>{i, 0}));
      fragments.push_back(std::move(fragment));
    }
  }
  return fragments;
}

void mlir::uta::emitWgmmaStep(OpBuilder &b, Location loc,
                              SmallVectorImpl<Value> &acc,
                              const WgmmaStepOperands &operands,
                              int64_t rowBytes, int64_t kSteps,
                              Type elementType, bool ignoreAcc) {
  bool registerA = !operands.aFragments.empty();
  bool split = static_cast<bool>(operands.bLow);
  assert((!registerA || !split ||
          operands.aLowFragments.size() == operands.aFragments.size()) &&
         "3xTF32 with A in registers needs A's remainders in registers");
  assert((registerA || !split || operands.aLow) &&
         "3xTF32 with A in shared memory needs A's remainder tile");
  // The product of slab `slab`'s A at K step `ks` (its remainders where
  // `low`) and the B tile `bTile`. One descriptor per statement: the IR
  // must not depend on argument evaluation order.
  auto product = [&](Value sum, int64_t slab, int64_t ks, bool low, Value bTile,
                     bool accumulate) {
    int64_t bOffset = ks * kWgmmaStepBytes;
    if (registerA) {
      Value bAt = offsetWgmmaDescriptor(b, loc, bTile, bOffset);
      ArrayRef<Tf32Fragment> fragments =
          low ? operands.aLowFragments : operands.aFragments;
      return emitWgmmaTf32RegisterA(b, loc, sum, fragments[slab * kSteps + ks],
                                    bAt, accumulate);
    }
    Value aAt =
        offsetWgmmaDescriptor(b, loc, low ? operands.aLow : operands.aHigh,
                              slab * kWgmmaSlabRows * rowBytes + bOffset);
    Value bAt = offsetWgmmaDescriptor(b, loc, bTile, bOffset);
    return emitWgmma(b, loc, sum, aAt, bAt, elementType, accumulate);
  };
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (auto [slab, sum] : llvm::enumerate(acc)) {
    bool accumulate = !split && !ignoreAcc;
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      if (split) {
        // The small terms first: they are the smaller addends.
        sum = product(sum, slab, ks, /*low=*/true, operands.bHigh, accumulate);
        sum = product(sum, slab, ks, /*low=*/false, operands.bLow, true);
        accumulate = true;
      }
      sum = product(sum, slab, ks, /*low=*/false, operands.bHigh, accumulate);
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
  return emitTf32Truncate(b, loc, emitTf32RoundForTruncation(b, loc, value));
}

Value mlir::uta::emitTf32RoundForTruncation(OpBuilder &b, Location loc,
                                            Value value) {
  auto [bits, constant] = getBits(b, loc, value);
  bits = arith::AddIOp::create(b, loc, bits, constant(0x1000));
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

/// Visits this thread's accumulator registers `step` at a time (1, or 2
/// for the pairs of adjacent columns) with the tile position of the first:
/// registers 4j .. 4j + 3 of warp q hold rows 16q + g and 16q + g + 8,
/// columns 8j + 2t and 8j + 2t + 1 (lane 4g + t); warpgroup w's rows start
/// at w * tileM / warpsM.
static void forEachAccumulator(
    OpBuilder &b, Location loc, const GemmConfig &c, Value threadId,
    ValueRange accumulators, int64_t step,
    function_ref<void(Value acc, int64_t index, Value row, Value column)>
        visit) {
  IndexMath math(b, loc);
  FragmentLane lane = getFragmentLane(math, threadId);
  Value warpgroupRow = math.mul(math.div(threadId, 128), c.tileM / c.warpsM);
  Value threadRow = lane.getRow(math, warpgroupRow);
  Value threadColumn = math.mul(lane.t, 2);
  for (auto [slab, acc] : llvm::enumerate(accumulators)) {
    int64_t size = cast<LLVM::LLVMStructType>(acc.getType()).getBody().size();
    for (int64_t i = 0; i < size; i += step) {
      int64_t j = i / 4, q = i % 4;
      Value row = math.add(threadRow, slab * kWgmmaSlabRows + 8 * (q / 2));
      Value column = math.add(threadColumn, 8 * j + q % 2);
      visit(acc, i, row, column);
    }
  }
}

void mlir::uta::emitWgmmaEpilogue(OpBuilder &b, Location loc,
                                  const GemmPlan &plan,
                                  const GemmBlockPosition &block,
                                  Value threadId, ValueRange accumulators,
                                  ElementEpilogue epilogue) {
  forEachAccumulator(b, loc, plan.config, threadId, accumulators, /*step=*/1,
                     [&](Value acc, int64_t i, Value row, Value column) {
                       Value value =
                           LLVM::ExtractValueOp::create(b, loc, acc, i);
                       emitGemmEpilogueElement(b, loc, plan, block, row, column,
                                               value, epilogue);
                     });
}

bool mlir::uta::canStageWgmmaEpilogue(const GemmPlan &plan,
                                      int64_t numThreads) {
  const GemmConfig &c = plan.config;
  // Whole vectors of a row, and whole turns of the threads over the tile.
  return plan.problem.n % kVectorWidth == 0 && c.tileN % kVectorWidth == 0 &&
         c.tileM * (c.tileN / kVectorWidth) % numThreads == 0;
}

LogicalResult mlir::uta::emitStagedWgmmaEpilogue(
    OpBuilder &b, Location loc, const GemmPlan &plan,
    const GemmBlockPosition &block, KernelIO &io, Value stagingAt,
    Value threadId, int64_t numThreads, function_ref<void()> barrier,
    ValueRange accumulators, ElementEpilogue epilogue,
    function_ref<Value(Value staging)> rowScales) {
  const GemmConfig &c = plan.config;
  const GemmProblem &p = plan.problem;
  if (!canStageWgmmaEpilogue(plan, numThreads))
    return failure();
  int64_t groupsPerRow = c.tileN / kVectorWidth;
  int64_t groups = c.tileM * groupsPerRow;
  int64_t rowLength = c.tileN + kStagingRowPadding;
  Value staging = io.aliasWorkgroupBuffer(b, loc, stagingAt,
                                          {c.tileM, rowLength}, b.getF32Type());
  if (!staging)
    return failure();
  IndexMath math(b, loc);
  // Every thread's reads of the memory the staging tile overlaps (the
  // stages) are complete.
  barrier();
  // The accumulators' pairs of adjacent columns as 8-byte stores.
  auto pairType = VectorType::get({2}, b.getF32Type());
  forEachAccumulator(
      b, loc, c, threadId, accumulators, /*step=*/2,
      [&](Value acc, int64_t i, Value row, Value column) {
        Value pair = LLVM::UndefOp::create(b, loc, pairType);
        for (int64_t k = 0; k < 2; ++k)
          pair = vector::InsertOp::create(
              b, loc, LLVM::ExtractValueOp::create(b, loc, acc, i + k), pair,
              k);
        vector::StoreOp::create(b, loc, pair, staging, ValueRange{row, column},
                                /*nontemporal=*/false, llvm::MaybeAlign(8));
      });
  barrier();
  Value scales = rowScales ? rowScales(staging) : Value();
  // Then 4 consecutive elements of a row per thread and turn, row-major
  // over the tile: a warp covers 128 consecutive elements of a row.
  auto loop = scf::ForOp::create(b, loc, math.index(0), math.index(groups),
                                 math.index(numThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value id = math.add(loop.getInductionVar(), threadId);
  Value row = math.div(id, groupsPerRow);
  Value column = math.mul(math.rem(id, groupsPerRow), kVectorWidth);
  auto quadType = VectorType::get({kVectorWidth}, b.getF32Type());
  Value values =
      vector::LoadOp::create(b, loc, quadType, staging, ValueRange{row, column},
                             /*nontemporal=*/false, llvm::MaybeAlign(16));
  if (scales) {
    Value scale = memref::LoadOp::create(b, loc, scales, row);
    values = arith::MulFOp::create(
        b, loc, values, vector::BroadcastOp::create(b, loc, quadType, scale));
  }
  Value m = math.add(block.row, row);
  Value n = math.add(block.column, column);
  // The result rows hold a multiple of 4 elements: a group is in range
  // whole or not at all.
  Value inRange;
  requireBelow(b, loc, inRange, m, p.m, c.tileM);
  requireBelow(b, loc, inRange, n, p.n, c.tileN);
  if (inRange) {
    auto branch = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    b.setInsertionPointToStart(branch.thenBlock());
  }
  SmallVector<Value> inner;
  for (int64_t k = 0; k < kVectorWidth; ++k)
    inner.push_back(math.add(n, k));
  io.beginAccessGroup(b, AccessLanes::rows(inner));
  for (int64_t k = 0; k < kVectorWidth; ++k) {
    io.setLane(k);
    SmallVector<Value> indices(block.batch);
    indices.append({m, inner[k]});
    epilogue(b, loc, indices, vector::ExtractOp::create(b, loc, values, k));
  }
  io.endAccessGroup(b, loc);
  return success();
}
