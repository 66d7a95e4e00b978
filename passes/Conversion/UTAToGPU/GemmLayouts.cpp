//===- GemmLayouts.cpp - Matmul operands copied where wgmma then applies --===//
//
// uta-gemm-layouts: sm_90a's wgmma reads A and B K-major only (TF32 cannot
// be transposed on the way), so a matmul given A [K, M] (transpose_a) or B
// [K, N] runs on mma.sync at about half the rate. Where the GEMM engine's
// planner would take a wgmma schedule for the same product with that one
// operand K-major, and the product is large enough to pay for a copy
// kernel, the operand is copied K-major once (uta.transpose; a B copy is
// rounded to TF32 for plain TF32 products, which would truncate it as
// staged). The planner decides; this pass only writes the layout it wants.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/UTAShapes.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::uta {
#define GEN_PASS_DEF_GEMMLAYOUTSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The fewest operations for which a copy kernel pays: wgmma gains about 3
/// ps per operation over mma.sync (TF32 4096^3 on an H100, 2026-11-24:
/// mma.sync 0.54x cuBLAS), a few microseconds, a launch, from 2^30 on.
constexpr int64_t kMinOperations = int64_t(1) << 30;
/// The fewest columns (for a copy of A) or rows of A (for a copy of B): the
/// copy moves twice the operand, the product runs 2 M N K operations at
/// twice the rate, which pays from a few hundred on; 1024 leaves a margin.
constexpr int64_t kMinOtherExtent = 1024;

bool isWgmma(const GemmPlan &plan) {
  return plan.config.schedule == GemmSchedule::Wgmma ||
         plan.config.schedule == GemmSchedule::WgmmaTma;
}

/// `value` [..., R, C] as [..., C, R], a copy (rounded to TF32 if asked).
Value copySwapped(OpBuilder &b, Location loc, Value value, bool roundToTf32) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  auto copy = TransposeOp::create(b, loc, value, getMatrixTranspose(rank));
  copy.setRoundToTf32(roundToTf32);
  return copy;
}

struct GemmLayoutsPass final
    : mlir::uta::impl::GemmLayoutsPassBase<GemmLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<GemmTarget> target = getGemmTarget(
        module, sm, archSpecific, tensorCores, allowTf32, /*gemmConfig=*/"");
    if (!target)
      return signalPassFailure();
    module.walk([&](MatmulOp matmul) { rewrite(matmul, *target); });
  }

  void rewrite(MatmulOp matmul, const GemmTarget &target) {
    GemmProblem problem = getGemmProblem(matmul);
    int64_t operations =
        2 * problem.getBatchCount() * problem.m * problem.n * problem.k;
    if (operations < kMinOperations || isWgmma(planGemm(problem, target)))
      return;
    // One operand at a time: A where B is K-major, B where A is.
    bool copyA = problem.transposeA && problem.transposeB;
    bool copyB = !problem.transposeA && !problem.transposeB;
    int64_t lhsRows =
        cast<RankedTensorType>(matmul.getLhs().getType()).getNumElements() /
        problem.k;
    if ((copyA && problem.n < kMinOtherExtent) ||
        (copyB && lhsRows < kMinOtherExtent) || (!copyA && !copyB))
      return;
    GemmProblem kMajor = problem;
    kMajor.transposeA = false;
    kMajor.transposeB = true;
    if (!isWgmma(planGemm(kMajor, target)))
      return;
    OpBuilder b(matmul);
    Location loc = matmul.getLoc();
    if (copyA) {
      Value copy = copySwapped(b, loc, matmul.getLhs(), /*roundToTf32=*/false);
      matmul.getLhsMutable().assign(copy);
      matmul.setTransposeA(false);
    } else {
      bool round = allowTf32 && problem.elementType.isF32();
      Value copy = copySwapped(b, loc, matmul.getRhs(), round);
      matmul.getRhsMutable().assign(copy);
      matmul.setTransposeB(true);
    }
    if (remarks)
      matmul.emitRemark() << "GEMM " << problem.m << "x" << problem.n << "x"
                          << problem.k << ": " << (copyA ? "A" : "B")
                          << " copied K-major, so that wgmma takes it";
  }
};

} // namespace
