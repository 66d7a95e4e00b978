//===- GemmOpEmitter.cpp - Kernels of the ops that are one GEMM -----------===//
//
// uta.matmul anchors its kernel (isKernelAnchor): whether alone or with
// fused pointwise consumers, the kernel is one of the GEMM engine's
// schedules (Gemm/GemmSchedules.h) for the plan of Gemm/GemmPlan.h, and the
// consumers run on each accumulator as its epilogue before the store. Other
// ops that are one GEMM (clifford.fc_product_pair_cotangents, a grouped
// GEMM) take the same emitter with their own problem.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/GemmOpEmitter.h"

#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

#include "dialects/UTA/IR/UTAOps.h"

using namespace mlir;
using namespace mlir::uta;

GemmPlan GemmOpEmitter::getPlan(Operation *op, std::string *whyNot) const {
  GemmProblem problem = problemOf(op);
  if (auto attr =
          op->getAttrOfType<GemmPlanAttr>(UTADialect::getGemmPlanAttrName())) {
    std::string error;
    if (std::optional<GemmPlan> plan =
            planGemmFromAttr(problem, target, attr, error))
      return *plan;
    if (whyNot)
      *whyNot = error;
  }
  return planGemm(problem, target);
}

int64_t GemmOpEmitter::getNumThreads(Operation *op, bool) const {
  return getPlan(op).getNumThreads();
}

std::optional<int64_t> GemmOpEmitter::getBlockSize(Operation *op, bool) const {
  return getPlan(op).config.getNumThreads();
}

GemmPlanAttr GemmOpEmitter::getPlanAttr(Operation *op) const {
  return getGemmPlanAttr(op->getContext(), getPlan(op));
}

KernelFlops GemmOpEmitter::countFlops(Operation *op) const {
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

LogicalResult GemmOpEmitter::emit(OpBuilder &b, Operation *op, Value,
                                  KernelIO &io, bool) const {
  return emitAnchored(
      b, op, io,
      [&](OpBuilder &nb, Location loc, ValueRange indices, Value value) {
        io.write(nb, loc, 0, indices, value);
      });
}

LogicalResult GemmOpEmitter::emitAnchored(OpBuilder &b, Operation *op,
                                          KernelIO &io,
                                          ElementEpilogue epilogue) const {
  std::string whyNot;
  GemmPlan plan = getPlan(op, &whyNot);
  if (!whyNot.empty())
    return op->emitError() << "the GEMM engine cannot follow its "
                           << UTADialect::getGemmPlanAttrName() << ": "
                           << whyNot;
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

void mlir::uta::populateMatmulKernelEmitters(KernelEmitterRegistry &registry,
                                             const GemmTarget &target,
                                             bool remarks) {
  registry.add<GemmOpEmitter, MatmulOp>(target, remarks, [](Operation *op) {
    return getGemmProblem(cast<MatmulOp>(op));
  });
}
