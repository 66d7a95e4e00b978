//===- GemmPlannerTest.cpp - The GEMM engine's choices per problem --------===//
//
// planGemm and planFcProduct on problems whose choice the docs state: the
// schedule each target gets, the row the heuristic takes where its tile
// fills the GPU and the smaller one where it would not, a named row that
// wins where it applies and is ignored where it does not, and fc_product's
// plan holding the engine's GemmPlan with its own counts.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"
#include "passes/Conversion/UTAToGPU/FcProduct/FcProductPlan.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::uta;

namespace {

class GemmPlannerTest : public ::testing::Test {
protected:
  GemmPlannerTest() { context.loadDialect<UTADialect>(); }

  GemmProblem problem(int64_t m, int64_t n, int64_t k, Type elementType,
                      bool transposeB = true, int64_t batch = 0) {
    GemmProblem p;
    if (batch)
      p.batchShape = p.lhsBatchShape = p.rhsBatchShape = {batch};
    p.m = m;
    p.n = n;
    p.k = k;
    p.transposeB = transposeB;
    p.elementType = elementType;
    return p;
  }
  static GemmTarget cuda(unsigned sm, bool archSpecific = false,
                         bool allowTf32 = false, std::string config = "") {
    GemmTarget target;
    target.sm = sm;
    target.archSpecific = archSpecific;
    target.allowTf32 = allowTf32;
    target.config = std::move(config);
    return target;
  }

  MLIRContext context;
  Builder builder{&context};
  Type f32 = builder.getF32Type(), bf16 = builder.getBF16Type();
};

TEST_F(GemmPlannerTest, EachTargetGetsItsSchedule) {
  GemmProblem large = problem(4096, 4096, 4096, bf16);
  GemmPlan simt = planGemm(large, GemmTarget());
  EXPECT_EQ(simt.config.schedule, GemmSchedule::Simt);
  EXPECT_EQ(simt.precision, GemmPrecision::Half);
  EXPECT_EQ(planGemm(large, cuda(80)).config.schedule, GemmSchedule::MmaSync);
  GemmPlan hopper = planGemm(large, cuda(90, /*archSpecific=*/true));
  EXPECT_EQ(hopper.config.schedule, GemmSchedule::Wgmma);
  EXPECT_STREQ(hopper.config.name, "wgmma128x256x64");
  // B given [K, N] is not K-contiguous: wgmma does not apply.
  EXPECT_EQ(planGemm(problem(4096, 4096, 4096, bf16, /*transposeB=*/false),
                     cuda(90, true))
                .config.schedule,
            GemmSchedule::MmaSync);
  // Without tensor cores, every dtype on the SIMT cores.
  GemmTarget noTensorCores = cuda(90, true);
  noTensorCores.tensorCores = false;
  EXPECT_EQ(planGemm(large, noTensorCores).config.schedule, GemmSchedule::Simt);
}

TEST_F(GemmPlannerTest, F32PrecisionFollowsTheTf32Choice) {
  GemmProblem large = problem(4096, 4096, 4096, f32);
  GemmPlan accurate = planGemm(large, cuda(90, true));
  EXPECT_EQ(accurate.precision, GemmPrecision::Tf32x3);
  EXPECT_EQ(accurate.config.schedule, GemmSchedule::WgmmaTma);
  EXPECT_STREQ(accurate.config.name, "tma128x128x32x3");
  GemmPlan tf32 = planGemm(large, cuda(90, true, /*allowTf32=*/true));
  EXPECT_EQ(tf32.precision, GemmPrecision::Tf32);
  EXPECT_STREQ(tf32.config.name, "tma128x256x32f32");
  EXPECT_EQ(tf32.getFlopsUnit(), "tf32");
  EXPECT_EQ(planGemm(large, GemmTarget()).getFlopsUnit(), "simt");
}

TEST_F(GemmPlannerTest, SmallProblemsTakeTilesThatFillTheGpu) {
  // 512 x 512 in 128x128 tiles is 16 blocks on 108 SMs: no row fills the
  // GPU, so the smallest tile (64 blocks).
  GemmPlan small = planGemm(problem(512, 512, 4096, bf16), cuda(80));
  EXPECT_STREQ(small.config.name, "mma64x64x32");
  EXPECT_EQ(small.getNumBlocks(), 64);
  EXPECT_FALSE(fillsTheGpu(small, small.config, cuda(80)));
  GemmPlan large = planGemm(problem(8192, 8192, 4096, bf16), cuda(80));
  EXPECT_STREQ(large.config.name, "mma128x128x64");
}

TEST_F(GemmPlannerTest, WeightGradientsReadATransposedOnMmaSync) {
  // A linear layer's weight gradient per blade, x^T g: M = N = 512, K over
  // the batch, A stored [K, M]. The wgmma schedules read A K-contiguous only,
  // so sm_90a keeps mma.sync; its 128x128 tile puts 128 blocks on 132 SMs,
  // which fills the GPU, where 64x64 tiles would take four waves.
  GemmProblem gradient = problem(512, 512, 8192, f32, /*transposeB=*/false,
                                 /*batch=*/8);
  gradient.transposeA = true;
  GemmPlan plan = planGemm(gradient, cuda(90, true, /*allowTf32=*/true));
  EXPECT_EQ(plan.config.schedule, GemmSchedule::MmaSync);
  EXPECT_EQ(plan.config.tileM, 128);
  EXPECT_EQ(plan.config.tileN, 128);
  EXPECT_EQ(plan.getNumBlocks(), 128);
  EXPECT_TRUE(fillsTheGpu(plan, plan.config, cuda(90, true)));
  // M-contiguous rows of A, 16-byte aligned: cp.async.
  EXPECT_TRUE(plan.asyncCopyA);
  EXPECT_NE(plan.describe().find("A [K][M] cp.async 16 B"), std::string::npos);
}

TEST_F(GemmPlannerTest, NamedRowWinsWhereItApplies) {
  GemmProblem large = problem(4096, 4096, 4096, bf16);
  GemmPlan named =
      planGemm(large, cuda(90, true, false, /*config=*/"tma128x128x64s6"));
  EXPECT_EQ(named.config.schedule, GemmSchedule::WgmmaTma);
  EXPECT_EQ(named.config.stages, 6);
  // An f32-only row does not apply to bf16: the heuristic's choice stays.
  GemmPlan ignored =
      planGemm(large, cuda(90, true, false, /*config=*/"tma128x128x32f32"));
  EXPECT_STREQ(ignored.config.name, "wgmma128x256x64");
}

TEST_F(GemmPlannerTest, SharedMemoryStaysWithinTheTarget) {
  for (GemmTarget target :
       {GemmTarget(), cuda(80), cuda(86), cuda(90, true), cuda(90, true, true)})
    for (Type type : {f32, bf16})
      for (int64_t size : {64, 1000, 8192}) {
        GemmPlan plan = planGemm(problem(size, size, size, type), target);
        EXPECT_LE(plan.getSharedMemoryBytes(), target.getMaxSharedBytes())
            << plan.describe();
      }
}

TEST_F(GemmPlannerTest, ConfigNamesOfBothTables) {
  EXPECT_TRUE(isGemmConfigName("mma128x128x64"));
  EXPECT_TRUE(isGemmConfigName("fctma128x256x32"));
  EXPECT_FALSE(isGemmConfigName("mma128x128x65"));
  EXPECT_FALSE(isGemmConfigName(""));
}

// fc_product of FCGP Cl(3,0) at B = 4096, F = 512: 8 result blades, K-major
// weights, plain TF32 on sm_90a takes the warp-specialised row with three
// weight stages, K tiles outermost, clusters of two column tiles and the
// long blades first in one chunk.
TEST_F(GemmPlannerTest, FcProductOnTheWarpSpecialisedSchedule) {
  GemmProblem blades = problem(4096, 512, 512, f32, /*transposeB=*/true, 8);
  std::optional<FcProductPlan> plan =
      planFcProduct(blades, cuda(90, true, true), /*termsPerSlot=*/1);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->gemm.config.schedule, GemmSchedule::WgmmaTma);
  EXPECT_STREQ(plan->gemm.config.name, "fctma128x256x32");
  EXPECT_EQ(plan->gemm.config.bStages, 3);
  EXPECT_TRUE(plan->kTilesOuter);
  EXPECT_EQ(plan->clusterBlocks, 2);
  EXPECT_EQ(plan->longBlocksFirstRows, plan->gemm.getTilesM());
  EXPECT_FALSE(plan->tmaRows);
  EXPECT_LE(plan->getSharedMemoryBytes(), cuda(90, true).getMaxSharedBytes());
  // fc_product's count, not the matmul kernel's: term and weight rings.
  EXPECT_NE(plan->getSharedMemoryBytes(), plan->gemm.getSharedMemoryBytes());
  EXPECT_NE(plan->describe().find("K-major weights by TMA in 3 stages"),
            std::string::npos)
      << plan->describe();

  // 3xTF32 runs slot by slot, without clusters, in two chunks of long
  // blocks first.
  std::optional<FcProductPlan> accurate =
      planFcProduct(blades, cuda(90, true), 1);
  ASSERT_TRUE(accurate);
  EXPECT_STREQ(accurate->gemm.config.name, "fctma128x128x32");
  EXPECT_FALSE(accurate->kTilesOuter);
  EXPECT_EQ(accurate->clusterBlocks, 1);
}

TEST_F(GemmPlannerTest, FcProductElsewhere) {
  GemmProblem blades = problem(4096, 512, 512, f32, /*transposeB=*/false, 8);
  // Weights [Fin][Fout] on sm_90a: the schedule that forms A and the
  // K-major weights in shared memory, x and y by TMA.
  std::optional<FcProductPlan> formed =
      planFcProduct(blades, cuda(90, true, true), /*termsPerSlot=*/2);
  ASSERT_TRUE(formed);
  EXPECT_EQ(formed->gemm.config.schedule, GemmSchedule::Wgmma);
  EXPECT_TRUE(formed->tmaRows);
  EXPECT_EQ(formed->aTilesPerStage, 4);
  EXPECT_GE(formed->gemm.config.stages, formed->getMinStages());
  // sm_80: mma.sync.
  std::optional<FcProductPlan> ampere = planFcProduct(blades, cuda(80), 2);
  ASSERT_TRUE(ampere);
  EXPECT_EQ(ampere->gemm.config.schedule, GemmSchedule::MmaSync);
  // No CUDA tensor cores, or not f32: the op keeps its SIMT kernel.
  EXPECT_FALSE(planFcProduct(blades, GemmTarget(), 2));
  EXPECT_FALSE(planFcProduct(problem(4096, 512, 512, bf16, false, 8),
                             cuda(90, true), 2));
}

// Every plan the heuristics make reads back from its #uta.gemm_plan as the
// same plan, so that uta-plan-gemms followed by the lowering changes
// nothing.
TEST_F(GemmPlannerTest, PlansRoundTripThroughTheAttribute) {
  for (GemmTarget target :
       {GemmTarget(), cuda(80), cuda(90, true), cuda(90, true, true),
        cuda(90, true, false, "tma128x128x64s6")})
    for (Type type : {f32, bf16})
      for (int64_t size : {96, 4096}) {
        GemmProblem p = problem(size, size, size, type);
        GemmPlan plan = planGemm(p, target);
        std::string whyNot;
        std::optional<GemmPlan> back = planGemmFromAttr(
            p, target, getGemmPlanAttr(&context, plan), whyNot);
        ASSERT_TRUE(back) << plan.describe() << ": " << whyNot;
        EXPECT_EQ(back->describe(), plan.describe());
      }
  for (GemmTarget target : {cuda(80), cuda(90, true), cuda(90, true, true)})
    for (bool kMajor : {false, true}) {
      GemmProblem blades = problem(4096, 512, 512, f32, kMajor, 8);
      std::optional<FcProductPlan> plan = planFcProduct(blades, target, 1);
      ASSERT_TRUE(plan);
      std::string whyNot;
      std::optional<FcProductPlan> back = planFcProductFromAttr(
          blades, target, 1, getGemmPlanAttr(&context, plan->gemm), whyNot);
      ASSERT_TRUE(back) << plan->describe() << ": " << whyNot;
      EXPECT_EQ(back->describe(), plan->describe());
    }
}

// A plan names a row that applies, or is refused with why.
TEST_F(GemmPlannerTest, PlansFromAttributesAreChecked) {
  GemmProblem large = problem(4096, 4096, 4096, bf16);
  auto attr = [&](StringRef schedule, ArrayRef<int64_t> tile,
                  ArrayRef<int64_t> warps, int64_t stages,
                  StringRef precision) {
    return GemmPlanAttr::get(&context, schedule, tile, warps, stages, precision,
                             0);
  };
  std::string whyNot;
  std::optional<GemmPlan> named = planGemmFromAttr(
      large, cuda(90, true),
      attr("wgmma_tma", {128, 128, 64}, {2, 1}, 6, "half"), whyNot);
  ASSERT_TRUE(named) << whyNot;
  EXPECT_STREQ(named->config.name, "tma128x128x64s6");
  EXPECT_FALSE(planGemmFromAttr(
      large, cuda(80), attr("wgmma_tma", {128, 128, 64}, {2, 1}, 6, "half"),
      whyNot));
  EXPECT_EQ(whyNot, "wgmma needs sm_90a");
  EXPECT_FALSE(planGemmFromAttr(
      large, cuda(80), attr("mma_sync", {128, 128, 64}, {2, 2}, 5, "half"),
      whyNot));
  EXPECT_EQ(whyNot, "no row of the engine's table has this schedule, tile, "
                    "warps and stages");
  // Four stages of 128x32 f32 tiles of A and B: 128 KiB, more shared
  // memory than sm_86 has (99 KiB).
  EXPECT_FALSE(planGemmFromAttr(
      problem(4096, 4096, 4096, f32), cuda(86),
      attr("mma_sync", {128, 128, 32}, {2, 2}, 4, "tf32"), whyNot));
  EXPECT_NE(whyNot.find("bytes of shared memory are more than the target's"),
            std::string::npos)
      << whyNot;
}

// What docs/gemm.md's checklists ask of a new row or schedule, for every
// row of both tables: a name of its own; a schedule whose thread count and
// remark exist; and, named on its schedule's target for operands of its
// element size and precision, the plan the planner makes, which reads back
// from its #uta.gemm_plan unchanged.
TEST_F(GemmPlannerTest, EveryRowIsReachableByName) {
  llvm::StringSet<> names;
  llvm::SmallSetVector<GemmSchedule, 4> schedules;
  auto targetOf = [&](const GemmConfigRow &row) {
    GemmTarget target;
    if (row.config.schedule == GemmSchedule::MmaSync)
      target = cuda(80);
    else if (row.config.schedule != GemmSchedule::Simt)
      target = cuda(90, /*archSpecific=*/true);
    target.allowTf32 = row.precision == GemmPrecision::Tf32;
    target.config = row.config.name;
    return target;
  };
  for (const GemmConfigRow &row : getGemmConfigTable()) {
    EXPECT_TRUE(names.insert(row.config.name).second) << row.config.name;
    schedules.insert(row.config.schedule);
    EXPECT_GT(row.config.getNumThreads(), 0) << row.config.name;
    GemmTarget target = targetOf(row);
    GemmProblem p =
        problem(4096, 4096, 4096, row.elementBytes == 2 ? bf16 : f32);
    GemmPlan plan = planGemm(p, target);
    EXPECT_STREQ(plan.config.name, row.config.name);
    EXPECT_NE(plan.describe().find(row.config.name), std::string::npos);
    std::string whyNot;
    std::optional<GemmPlan> back =
        planGemmFromAttr(p, target, getGemmPlanAttr(&context, plan), whyNot);
    ASSERT_TRUE(back) << row.config.name << ": " << whyNot;
    EXPECT_STREQ(back->config.name, row.config.name);
  }
  EXPECT_EQ(schedules.size(), 4u) << "a schedule without a matmul row";
  for (const GemmConfigRow &row : getFcProductConfigTable()) {
    EXPECT_TRUE(names.insert(row.config.name).second) << row.config.name;
    GemmTarget target = targetOf(row);
    bool kMajor = row.config.schedule == GemmSchedule::WgmmaTma;
    GemmProblem blades = problem(4096, 512, 512, f32, kMajor, 8);
    std::optional<FcProductPlan> plan = planFcProduct(blades, target, 1);
    ASSERT_TRUE(plan) << row.config.name;
    EXPECT_STREQ(plan->gemm.config.name, row.config.name);
    std::string whyNot;
    std::optional<FcProductPlan> back = planFcProductFromAttr(
        blades, target, 1, getGemmPlanAttr(&context, plan->gemm), whyNot);
    ASSERT_TRUE(back) << row.config.name << ": " << whyNot;
    EXPECT_EQ(back->describe(), plan->describe());
  }
}

} // namespace
