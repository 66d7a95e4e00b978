//===- PlanGemms.cpp - The GEMM engine's plans as attributes --------------===//
//
// Asks the kernel emitter of each op for the plan it will follow on the
// GEMM engine and attaches it as the op's `uta.gemm_plan`, so that the plan
// is in the IR for tests, dumps and tuners to read or replace before
// convert-uta-to-gpu lowers the op. The emitters decide (KernelEmitter's
// getPlanAttr): this pass only writes what they say.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::uta {
#define GEN_PASS_DEF_PLANGEMMSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {
struct PlanGemmsPass final : mlir::uta::impl::PlanGemmsPassBase<PlanGemmsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<GemmTarget> target = getGemmTarget(
        module, sm, archSpecific, tensorCores, allowTf32, gemmConfig);
    if (!target)
      return signalPassFailure();
    KernelEmitterRegistry emitters;
    populateKernelEmitters(emitters, *target, /*remarks=*/false);
    StringRef name = UTADialect::getGemmPlanAttrName();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isDeclaration())
        continue;
      func.walk([&](Operation *op) {
        // A plan the op has stays: convert-uta-to-gpu follows it or
        // refuses it at the op.
        const OpKernelEmitter *emitter = emitters.lookup(op);
        if (!emitter || op->hasAttr(name))
          return;
        if (GemmPlanAttr plan = emitter->getPlanAttr(op))
          op->setAttr(name, plan);
      });
    }
  }
};
} // namespace
