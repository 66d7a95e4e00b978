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

  GemmPlan getPlan(Operation *op) const {
    return planGemm(getGemmProblem(cast<MatmulOp>(op)), target);
  }

  int64_t getNumThreads(Operation *op, bool) const override {
    GemmPlan plan = getPlan(op);
    return plan.getNumThreads();
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    return getPlan(op).config.getNumThreads();
  }

  bool isKernelAnchor() const override { return true; }

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
    GemmPlan plan = getPlan(op);
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
