//===- SplitK.cpp - Long-K GEMMs split along K, summed in a fixed order ---===//
//
// uta-split-k: a weight gradient x^T g has small M and N and K running over
// the batch, so the GEMM engine's grid leaves most SMs idle (512x512 over
// K = 8192: 16 blocks of 128x128 on 132 SMs). Where both operands hold K as
// their outer matrix axis (A stored [K, M], transpose_a; B [K, N]), K splits
// into S runs by a reshape that copies nothing, the product becomes a batch
// of S partial products, and uta.reduce_sum adds them in index order (f32
// products only: the sum is f32's): a
// deterministic split-K (no atomics, the same bits on every run) made of
// existing parts. The engine's own planner picks S: the fewest splits whose
// grid fills the GPU (fillsTheGpu) with the tile it prefers for the
// product, each run of K at least kMinSplitDepth long.
//
// fc_product_weight_gradient has a block per path and tile: few at small
// feature counts (20 in Cl(3,0) at 128 features), or a last wave that
// leaves SMs idle. Its batch_runs split the batch inside the
// kernel (the runs' blocks side by side), as many as make its blocks
// shortest by an estimate: each path's blocks as long as its slots' K
// tiles, handed longest first to the SMs as they free up.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <queue>
#include <tuple>
#include <vector>

namespace mlir::uta {
#define GEN_PASS_DEF_SPLITKPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The most runs K splits into: partial products cost S M N floats written
/// and read again.
constexpr int64_t kMaxSplits = 16;
/// The shortest run of K a split leaves: enough K tiles per block to fill
/// the engine's pipeline several times over.
constexpr int64_t kMinSplitDepth = 512;

/// `type` [..., K, X] as [..., S, K / S, X].
RankedTensorType splitOuterAxis(RankedTensorType type, int64_t splits) {
  SmallVector<int64_t> shape(type.getShape().drop_back(2));
  int64_t k = type.getShape().end()[-2];
  shape.append({splits, k / splits, type.getShape().back()});
  return type.clone(shape);
}

/// `problem` with one more batch axis, of `size`, in front of the matrices.
GemmProblem withBatchAxis(GemmProblem problem, int64_t size) {
  problem.batchShape.push_back(size);
  problem.lhsBatchShape.push_back(size);
  problem.rhsBatchShape.push_back(size);
  return problem;
}

/// The number of runs to split the K of `problem` (a matmul's) into on
/// `target`: the fewest whose grid fills the GPU with the tile the engine
/// prefers for the product (the one it takes where blocks are plenty); 1 where
/// the grid fills the GPU already, where the operands do not both hold K as the
/// outer axis, or where no split within the limits does.
int64_t chooseSplits(const GemmProblem &problem, const GemmTarget &target) {
  // uta.reduce_sum sums f32: 16-bit products keep one run.
  if (!problem.transposeA || problem.transposeB || !problem.elementType.isF32())
    return 1;
  GemmPlan plan = planGemm(problem, target);
  if (fillsTheGpu(plan, plan.config, target))
    return 1;
  StringRef preferred =
      planGemm(withBatchAxis(problem, 1024), target).config.name;
  for (int64_t splits = 2; splits <= kMaxSplits; splits *= 2) {
    if (problem.k % splits != 0 || problem.k / splits < kMinSplitDepth)
      return 1;
    GemmProblem split = withBatchAxis(problem, splits);
    split.k = problem.k / splits;
    GemmPlan splitPlan = planGemm(split, target);
    if (splitPlan.config.name == preferred &&
        fillsTheGpu(splitPlan, splitPlan.config, target))
      return splits;
  }
  return 1;
}

/// K tiles' worth of time a block spends outside its K loop (the ring's
/// fill, the epilogue): what makes many short runs cost more than a few
/// long ones.
constexpr int64_t kBlockOverheadTiles = 8;

/// K tiles' worth of time the sum of the runs' partial products takes (a
/// launch, and its reads and writes at the sizes where runs pay).
constexpr int64_t kRunSumTiles = 16;

/// The time of a weight gradient's blocks on `plan`, in units of one K
/// tile of one block: each path's blocks take its slots' K tiles (and
/// kBlockOverheadTiles), handed longest first to whichever SM is free
/// first (the kernel's order), one block per SM.
int64_t estimateBlocksTime(const GemmPlan &plan, ArrayRef<int64_t> slotCounts,
                           const GemmTarget &target) {
  int64_t kTiles = llvm::divideCeil(plan.problem.k, plan.config.tileK);
  int64_t blocksPerPath =
      plan.problem.kRuns * plan.getTilesM() * plan.getTilesN();
  SmallVector<int64_t> works;
  for (int64_t slots : slotCounts)
    works.append(blocksPerPath, slots * kTiles + kBlockOverheadTiles);
  llvm::sort(works, std::greater<int64_t>());
  // The SMs' finishing times, the earliest on top.
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<int64_t>>
      free;
  for (int64_t sm = 0; sm < target.getNumSMs(); ++sm)
    free.push(0);
  int64_t end = 0;
  for (int64_t work : works) {
    int64_t start = free.top();
    free.pop();
    free.push(start + work);
    end = std::max(end, start + work);
  }
  return end;
}

/// The runs of the batch for `gradient` on `target`: on sm_90a, where the
/// warp-specialised kernel takes it in the layout uta-tensor-core-layouts
/// gives it (every operand batch-contiguous), the count up to kMaxSplits
/// (the same tile, runs of whole K tiles) whose blocks take least by
/// estimateBlocksTime, plus kRunSumTiles, the fewest of equal ones, where
/// that is at least 10% less than one run's; else 1. `times` gets the
/// estimates of one run and of the runs chosen (with their sum).
int64_t chooseBatchRuns(clifford::FcProductWeightGradientOp gradient,
                        const GemmTarget &target,
                        std::pair<int64_t, int64_t> &times) {
  if (!target.archSpecific || target.sm != 90 || gradient.getBatchRuns() != 1)
    return 1;
  FcWeightGradientForm form = {/*pairsTransposed=*/true,
                               /*cotangentTransposed=*/true};
  std::optional<FcProductPlan> whole =
      planFcProductWeightGradient(gradient, target, form);
  if (!whole || whole->gemm.config.schedule != GemmSchedule::WgmmaTma)
    return 1;
  SmallVector<int64_t> slotCounts =
      getFcProductWeightGradientSlotCounts(gradient);
  int64_t batch = whole->gemm.problem.k, best = 1;
  int64_t oneRun = estimateBlocksTime(whole->gemm, slotCounts, target);
  times = {oneRun, oneRun};
  for (int64_t runs = 2; runs <= kMaxSplits; ++runs) {
    if (batch % runs != 0)
      continue;
    form.batchRuns = runs;
    std::optional<FcProductPlan> split =
        planFcProductWeightGradient(gradient, target, form);
    if (!split || StringRef(split->gemm.config.name) != whole->gemm.config.name)
      continue;
    int64_t time =
        estimateBlocksTime(split->gemm, slotCounts, target) + kRunSumTiles;
    if (time < times.second) {
      best = runs;
      times.second = time;
    }
  }
  return times.second * 10 <= times.first * 9 ? best : 1;
}

/// `gradient` in `runs` runs of the batch, their partial gradients summed
/// in order.
void splitBatch(clifford::FcProductWeightGradientOp gradient, int64_t runs) {
  OpBuilder b(gradient);
  Location loc = gradient.getLoc();
  auto type = cast<RankedTensorType>(gradient.getType());
  SmallVector<int64_t> shape{runs};
  llvm::append_range(shape, type.getShape());
  auto partials = cast<clifford::FcProductWeightGradientOp>(
      b.clone(*gradient.getOperation()));
  partials.setBatchRuns(runs);
  partials.getResult().setType(type.clone(shape));
  Value sum = ReduceSumOp::create(b, loc, partials, ArrayRef<int64_t>{0});
  gradient.replaceAllUsesWith(sum);
  gradient.erase();
}

struct SplitKPass final : mlir::uta::impl::SplitKPassBase<SplitKPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<GemmTarget> target = getGemmTarget(
        module, sm, archSpecific, tensorCores, allowTf32, /*gemmConfig=*/"");
    if (!target)
      return signalPassFailure();
    std::vector<std::tuple<MatmulOp, GemmProblem, int64_t>> splits;
    module.walk([&](MatmulOp matmul) {
      GemmProblem problem = getGemmProblem(matmul);
      if (int64_t count = chooseSplits(problem, *target); count > 1)
        splits.push_back({matmul, problem, count});
    });
    for (auto &[matmul, problem, count] : splits) {
      OpBuilder b(matmul);
      Location loc = matmul.getLoc();
      auto lhsType = cast<RankedTensorType>(matmul.getLhs().getType());
      auto rhsType = cast<RankedTensorType>(matmul.getRhs().getType());
      Value lhs = ReshapeOp::create(b, loc, splitOuterAxis(lhsType, count),
                                    matmul.getLhs());
      Value rhs = ReshapeOp::create(b, loc, splitOuterAxis(rhsType, count),
                                    matmul.getRhs());
      auto partials = MatmulOp::create(b, loc, lhs, rhs, /*transposeB=*/false,
                                       /*transposeA=*/true);
      int64_t splitAxis =
          cast<RankedTensorType>(partials.getType()).getRank() - 3;
      Value sum =
          ReduceSumOp::create(b, loc, partials, ArrayRef<int64_t>{splitAxis});
      if (remarks) {
        matmul.emitRemark() << llvm::formatv(
            "GEMM {0}x{1}x{2} split along K into {3} runs of {4} (a grid that "
            "fills the GPU), the partial products summed in order by "
            "uta.reduce_sum",
            problem.m, problem.n, problem.k, count, problem.k / count);
      }
      matmul.replaceAllUsesWith(sum);
      matmul.erase();
    }

    std::vector<std::pair<clifford::FcProductWeightGradientOp, int64_t>> runs;
    module.walk([&](clifford::FcProductWeightGradientOp gradient) {
      std::pair<int64_t, int64_t> times;
      int64_t count = chooseBatchRuns(gradient, *target, times);
      if (count == 1)
        return;
      runs.push_back({gradient, count});
      if (remarks)
        gradient.emitRemark() << llvm::formatv(
            "fc_product_weight_gradient in {0} runs of the batch: its blocks "
            "and their sum estimated at {1} K tiles' time instead of {2}; the "
            "partial gradients summed in order by uta.reduce_sum",
            count, times.second, times.first);
    });
    for (auto [gradient, count] : runs)
      splitBatch(gradient, count);
  }
};

} // namespace
