//===- GradeNormExchange.cpp - fc_product's grade norm across blocks ------===//
//
// See GradeNormExchange.h: per-row sums of squares written by every block
// of a (row tile, grade) group, a counter per group, and the norms added up
// from the group's sums in a fixed order.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/FcProduct/GradeNormExchange.h"

#include "passes/Conversion/UTAToGPU/Gemm/Wgmma.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::uta;

/// The scope of the counters' atomics and fences: the whole GPU.
static constexpr StringLiteral kDeviceScope = "device";

/// The most times a block polls its group's counter (each poll an L2 round
/// trip: tens of seconds in all) before it gives up with a trap.
static constexpr int64_t kMaxPolls = int64_t(1) << 25;

/// Shared memory the exchange adds: the ticket and the rows' scales,
/// allocated before the schedule's tiles, which then start at the next
/// 1024-byte boundary.
static constexpr int64_t kExchangeSharedBytes = kWgmmaTileAlignment;

/// The blocks of one row tile that hold blades of `grade`: the group that
/// exchanges their rows' sums.
static int64_t getGroupBlocks(const GemmPlan &plan,
                              const FcProductGradeNorm &norm, unsigned grade) {
  return llvm::count(norm.gradeOfBlade, grade) * plan.getTilesN();
}

std::string mlir::uta::explainGradeNormExchange(const FcProductPlan &fcPlan,
                                                const FcProductGemm &fc,
                                                const FcProductGradeNorm &norm,
                                                int64_t maxSharedBytes) {
  const GemmPlan &plan = fcPlan.gemm;
  const GemmConfig &c = plan.config;
  if (c.schedule != GemmSchedule::WgmmaTma)
    return "only the warp-specialised schedule computes the norm";
  if (fcPlan.getSharedMemoryBytes() + kExchangeSharedBytes > maxSharedBytes)
    return llvm::formatv("its workgroup words do not fit beside the "
                         "schedule's {0} bytes of shared memory",
                         fcPlan.getSharedMemoryBytes())
        .str();
  if (!canStageWgmmaTmaFcProductEpilogue(fcPlan))
    return "the result tile is not staged in shared memory (rows not a "
           "multiple of 4 or no room)";
  int64_t consumers = 128 * c.warpsM;
  int64_t threadsPerRow = consumers / c.tileM;
  if (consumers % c.tileM != 0 || !llvm::isPowerOf2_64(threadsPerRow) ||
      threadsPerRow > 32 || c.tileN % (kVectorWidth * threadsPerRow) != 0)
    return "the consumer threads do not split the tile's rows evenly";
  // The blocks of a group are consecutive in the block order where the
  // blades of a grade are consecutive among blades of equal slot counts.
  SmallVector<unsigned> order = getFcProductBladeOrder(fc);
  for (unsigned grade = 0; grade < norm.numGrades; ++grade) {
    SmallVector<size_t> positions;
    for (auto [position, blade] : llvm::enumerate(order))
      if (norm.gradeOfBlade[blade] == grade)
        positions.push_back(position);
    if (positions.empty())
      continue;
    for (size_t i = 1; i < positions.size(); ++i)
      if (positions[i] != positions[i - 1] + 1 ||
          fc.slotsOfBlade[order[positions[i]]].size() !=
              fc.slotsOfBlade[order[positions[0]]].size())
        return llvm::formatv("the blades of grade {0} do not have equal slot "
                             "counts, so their blocks are not consecutive",
                             grade)
            .str();
    int64_t blocks = getGroupBlocks(plan, norm, grade);
    if (blocks > kMaxGradeNormGroupBlocks)
      return llvm::formatv("grade {0} spans {1} blocks of a row tile, more "
                           "than the {2} that wait on each other",
                           grade, blocks, kMaxGradeNormGroupBlocks)
          .str();
  }
  return "";
}

GradeNormExchange::GradeNormExchange(OpBuilder &b, Location loc,
                                     const FcProductPlan &fcPlan,
                                     const FcProductGemm &fc,
                                     const FcProductGradeNorm &norm,
                                     KernelIO &io)
    : GemmScheduleEmitter(b, loc, fcPlan.gemm, io), norm(norm) {
  counters = io.allocateGlobalBuffer(b, loc, getCounterWords(),
                                     /*zeroed=*/true);
  sums = io.allocateGlobalBuffer(b, loc,
                                 static_cast<int64_t>(fc.slotsOfBlade.size()) *
                                     plan.getTilesN() * p.m,
                                 /*zeroed=*/false);
  // (Each at a 128-byte boundary.)
  assert(128 + c.tileM * 4 <= kExchangeSharedBytes &&
         "the ticket and the row scales fit kExchangeSharedBytes");
  ticketWord = io.allocateWorkgroupBuffer(b, loc, {1}, b.getI32Type(), 4);
  rowScales = io.allocateWorkgroupBuffer(b, loc, c.tileM);
}

int64_t GradeNormExchange::getCounterWords() const {
  return 1 + plan.getTilesM() * norm.numGrades;
}

Value GradeNormExchange::getWordPointer(Value buffer, Value word) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value address = add(base, mul(word, 4));
  Value integer =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult();
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer);
}

Value GradeNormExchange::emitTicket(Value threadId) {
  emitIf(isBelow(threadId, 1), [&] {
    Value ticket = LLVM::AtomicRMWOp::create(
        b, loc, LLVM::AtomicBinOp::add, getWordPointer(counters, index(0)),
        arith::ConstantIntOp::create(b, loc, 1, 32),
        LLVM::AtomicOrdering::monotonic, kDeviceScope);
    memref::StoreOp::create(b, loc, ticket, ticketWord, index(0));
  });
  gpu::BarrierOp::create(b, loc);
  Value ticket = memref::LoadOp::create(b, loc, ticketWord, index(0));
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), ticket);
}

Value GradeNormExchange::emitRowScales(const GemmBlockPosition &position,
                                       Value staging, Value thread,
                                       int64_t numThreads,
                                       function_ref<void()> barrier) {
  int64_t threadsPerRow = numThreads / c.tileM;
  int64_t tilesN = plan.getTilesN();
  Value row = div(thread, threadsPerRow);
  Value part = rem(thread, threadsPerRow);

  // The squares of every threadsPerRow-th group of 4 columns from the
  // part's, in order: a row's parts read adjacent 16 bytes, and a warp's
  // loads take the fewest passes over the banks.
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto quadType = VectorType::get({kVectorWidth}, b.getF32Type());
  int64_t stride = kVectorWidth * threadsPerRow;
  auto loop =
      scf::ForOp::create(b, loc, mul(part, kVectorWidth), index(c.tileN),
                         index(stride), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value quad = vector::LoadOp::create(
        b, loc, quadType, staging, ValueRange{row, loop.getInductionVar()},
        /*nontemporal=*/false, llvm::MaybeAlign(16));
    Value sum = loop.getRegionIterArgs().front();
    for (int64_t k = 0; k < kVectorWidth; ++k) {
      Value v = vector::ExtractOp::create(b, loc, quad, k);
      sum = arith::AddFOp::create(b, loc, sum,
                                  arith::MulFOp::create(b, loc, v, v));
    }
    scf::YieldOp::create(b, loc, sum);
  }
  // The row's parts are adjacent lanes: xor shuffles give every part the
  // same sum (a + b = b + a).
  Value sum = loop.getResult(0);
  for (int64_t offset = 1; offset < threadsPerRow; offset *= 2) {
    auto other =
        gpu::ShuffleOp::create(b, loc, sum, offset, 32, gpu::ShuffleMode::XOR);
    sum = arith::AddFOp::create(b, loc, sum, other.getShuffleResult());
  }

  // This block's sums. The barrier orders them before thread 0's release
  // of the count (cumulative over what the block's barrier ordered).
  Value blade = position.batch.front();
  Value columnTile = div(position.column, c.tileN);
  Value m = add(position.row, row);
  Value lastRow = index(p.m - 1);
  Value mInRange = arith::MinUIOp::create(b, loc, m, lastRow);
  auto sumWord = [&](Value sumBlade, Value sumColumnTile) {
    return add(mul(add(mul(sumBlade, tilesN), sumColumnTile), p.m), mInRange);
  };
  Value isFirstPart = isBelow(part, 1);
  Value writes = arith::AndIOp::create(b, loc, isFirstPart, isBelow(m, p.m));
  emitIf(writes, [&] {
    memref::StoreOp::create(b, loc, sum, sums, sumWord(blade, columnTile));
  });
  barrier();

  // The block's grade: a chain of selects over the blades.
  Value grade = index(norm.gradeOfBlade.front());
  for (auto [k, bladeGrade] : llvm::enumerate(norm.gradeOfBlade))
    if (k != 0)
      grade = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, blade,
                                index(k)),
          index(bladeGrade), grade);

  // Count this block in; wait for the group's other blocks.
  emitIf(isBelow(thread, 1), [&] {
    Value rowTile = div(position.row, c.tileM);
    Value counter = getWordPointer(
        counters, add(add(mul(rowTile, norm.numGrades), grade), 1));
    Value i32One = arith::ConstantIntOp::create(b, loc, 1, 32);
    // A release fence, then a relaxed add: LLVM 22's NVPTX backend emits a
    // release atomicrmw as a plain (relaxed) atom, dropping the ordering.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, kDeviceScope);
    LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, counter, i32One,
                              LLVM::AtomicOrdering::monotonic, kDeviceScope);
    // The group's size: its grade's blades by the column tiles.
    Value groupBlocks = index(0);
    for (unsigned g = 0; g < norm.numGrades; ++g)
      groupBlocks = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, grade,
                                index(g)),
          index(getGroupBlocks(plan, norm, g)), groupBlocks);
    Value target =
        arith::IndexCastOp::create(b, loc, b.getI32Type(), groupBlocks);
    // Polls the counter, at most kMaxPolls times: a group that never
    // completes (a GPU holding fewer blocks at once than the group) then
    // ends the kernel with an error instead of hanging it.
    Type i32 = b.getI32Type();
    Value noPolls = arith::ConstantIntOp::create(b, loc, 0, 32);
    auto wait =
        scf::WhileOp::create(b, loc, TypeRange{i32, i32}, ValueRange{noPolls});
    Block *before = b.createBlock(&wait.getBefore(), {}, {i32}, {loc});
    Value polls = before->getArgument(0);
    Value arrived = LLVM::LoadOp::create(
        b, loc, i32, counter, /*alignment=*/4, /*isVolatile=*/false,
        /*isNonTemporal=*/false, /*isInvariant=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
        kDeviceScope);
    Value incomplete = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             arrived, target);
    Value patient = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, polls,
        arith::ConstantIntOp::create(b, loc, kMaxPolls, 32));
    scf::ConditionOp::create(b, loc,
                             arith::AndIOp::create(b, loc, incomplete, patient),
                             ValueRange{polls, arrived});
    Block *after = b.createBlock(&wait.getAfter(), {}, {i32, i32}, {loc, loc});
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::AddIOp::create(
                             b, loc, after->getArgument(0),
                             arith::ConstantIntOp::create(b, loc, 1, 32))});
    b.setInsertionPointAfter(wait);
    emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                 wait.getResult(1), target),
           [&] { LLVM::Trap::create(b, loc); });
  });
  barrier();

  // The group's sums in a fixed order (blades by index, then column
  // tiles), one case per grade.
  SmallVector<int64_t> grades =
      llvm::to_vector(llvm::seq<int64_t>(0, norm.numGrades));
  auto cases = scf::IndexSwitchOp::create(b, loc, b.getF32Type(), grade, grades,
                                          grades.size());
  auto addGroup = [&](Region &region, std::optional<unsigned> caseGrade) {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&region);
    Value total = zero;
    if (caseGrade)
      for (auto [k, bladeGrade] : llvm::enumerate(norm.gradeOfBlade)) {
        if (bladeGrade != *caseGrade)
          continue;
        for (int64_t column = 0; column < tilesN; ++column) {
          // Strong GPU-scope loads, after thread 0's acquire and the
          // barrier: from L2, never from a line this SM cached earlier.
          Value word = LLVM::LoadOp::create(
              b, loc, b.getF32Type(),
              getWordPointer(sums, sumWord(index(k), index(column))),
              /*alignment=*/4, /*isVolatile=*/false, /*isNonTemporal=*/false,
              /*isInvariant=*/false, /*isInvariantGroup=*/false,
              LLVM::AtomicOrdering::monotonic, kDeviceScope);
          total = arith::AddFOp::create(b, loc, total, word);
        }
      }
    scf::YieldOp::create(b, loc, total);
  };
  addGroup(cases.getDefaultRegion(), std::nullopt);
  for (auto [i, g] : llvm::enumerate(grades))
    addGroup(cases.getCaseRegions()[i], g);
  // sqrt(sum / F + epsilon), as grade_rms_norm computes it; the tile is
  // multiplied by its reciprocal (a division per row, not per element).
  Value mean = arith::DivFOp::create(
      b, loc, cases.getResult(0),
      arith::ConstantOp::create(b, loc,
                                b.getF32FloatAttr(static_cast<float>(p.n))));
  Value rootOf = arith::AddFOp::create(
      b, loc, mean,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(norm.epsilon)));
  Value rowNorm = math::SqrtOp::create(b, loc, rootOf);
  Value inverse = arith::DivFOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f)),
      rowNorm);
  emitIf(isFirstPart,
         [&] { memref::StoreOp::create(b, loc, inverse, rowScales, row); });
  barrier();
  return rowScales;
}
