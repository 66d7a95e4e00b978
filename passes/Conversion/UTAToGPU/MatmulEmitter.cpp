//===- MatmulEmitter.cpp - Kernel of uta.matmul on the GEMM engine --------===//
//
// uta.matmul anchors its kernel (isKernelAnchor): whether alone or with
// fused pointwise consumers, the kernel is one of the GEMM engine's
// schedules (Gemm/GemmSchedules.h) for the plan of Gemm/GemmPlan.h, and the
// consumers run on each accumulator as its epilogue before the store.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/UTA/IR/UTAOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {
class GemmEmitter final : public OpKernelEmitter {
public:
  GemmEmitter(const GemmTarget &target, bool remarks)
      : target(target), remarks(remarks) {}

  /// The plan of `op`: its #uta.gemm_plan where it has one the engine can
  /// follow, else the heuristic's; `whyNot` (if given) gets why an attached
  /// plan cannot be followed.
  GemmPlan getPlan(Operation *op, std::string *whyNot = nullptr) const {
    GemmProblem problem = getGemmProblem(cast<MatmulOp>(op));
    if (auto attr = op->getAttrOfType<GemmPlanAttr>(
            UTADialect::getGemmPlanAttrName())) {
      std::string error;
      if (std::optional<GemmPlan> plan =
              planGemmFromAttr(problem, target, attr, error))
        return *plan;
      if (whyNot)
        *whyNot = error;
    }
    return planGemm(problem, target);
  }

  int64_t getNumThreads(Operation *op, bool) const override {
    GemmPlan plan = getPlan(op);
    return plan.getNumThreads();
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    return getPlan(op).config.getNumThreads();
  }

  bool isKernelAnchor() const override { return true; }

  GemmPlanAttr getPlanAttr(Operation *op) const override {
    return getGemmPlanAttr(op->getContext(), getPlan(op));
  }

  KernelFlops countFlops(Operation *op) const override {
    GemmPlan plan = getPlan(op);
    const GemmProblem &problem = plan.problem;
    int64_t products =
        2 * problem.getBatchCount() * problem.m * problem.n * problem.k;
    KernelFlops flops;
    StringRef unit = plan.getFlopsUnit();
    if (unit == "simt") {
      flops.simt = products;
    } else {
      flops.tensor = products;
      flops.tensorPrecision = unit;
    }
    return flops;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value, KernelIO &io,
                     bool) const override {
    return emitAnchored(
        b, op, io,
        [&](OpBuilder &nb, Location loc, ValueRange indices, Value value) {
          io.write(nb, loc, 0, indices, value);
        });
  }

  LogicalResult emitAnchored(OpBuilder &b, Operation *op, KernelIO &io,
                             ElementEpilogue epilogue) const override {
    std::string whyNot;
    GemmPlan plan = getPlan(op, &whyNot);
    if (!whyNot.empty())
      return op->emitError()
             << "the GEMM engine cannot follow its "
             << UTADialect::getGemmPlanAttrName() << ": " << whyNot;
    if (remarks)
      op->emitRemark() << "GEMM " << plan.describe();
    switch (plan.config.schedule) {
    case GemmSchedule::Simt:
      return emitSimtGemm(b, op->getLoc(), plan, io, epilogue);
    case GemmSchedule::MmaSync:
      return emitMmaSyncGemm(b, op->getLoc(), plan, io, epilogue);
    case GemmSchedule::Wgmma:
      return emitWgmmaGemm(b, op->getLoc(), plan, io, epilogue);
    case GemmSchedule::WgmmaTma:
      return emitWgmmaTmaGemm(b, op->getLoc(), plan, io, epilogue);
    }
    llvm_unreachable("unknown GEMM schedule");
  }

private:
  GemmTarget target;
  bool remarks;
};
} // namespace

void mlir::uta::populateMatmulKernelEmitters(KernelEmitterRegistry &registry,
                                             const GemmTarget &target,
                                             bool remarks) {
  registry.add<GemmEmitter, MatmulOp>(target, remarks);
}
