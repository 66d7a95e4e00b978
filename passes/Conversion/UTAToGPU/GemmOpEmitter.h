//===- GemmOpEmitter.h - The kernel of an op that is one GEMM ---*- C++ -*-===//
//
// The kernel emitter of every op that is one GEMM of the engine: it plans
// the op's problem (its #uta.gemm_plan where the engine can follow it, else
// the heuristic's), reports the plan and the FLOPs, and emits the plan's
// schedule, with fused consumers as the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GEMMOPEMITTER_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GEMMOPEMITTER_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

namespace mlir::uta {

class GemmOpEmitter final : public OpKernelEmitter {
public:
  /// The engine's problem of an op of the emitter's kind.
  using ProblemOf = GemmProblem (*)(Operation *op);

  GemmOpEmitter(const GemmTarget &target, bool remarks, ProblemOf problemOf)
      : target(target), remarks(remarks), problemOf(problemOf) {}

  /// The plan of `op`: its #uta.gemm_plan where it has one the engine can
  /// follow, else the heuristic's; `whyNot` (if given) gets why an attached
  /// plan cannot be followed.
  GemmPlan getPlan(Operation *op, std::string *whyNot = nullptr) const;

  int64_t getNumThreads(Operation *op, bool) const override;
  std::optional<int64_t> getBlockSize(Operation *op, bool) const override;
  bool isKernelAnchor() const override { return true; }
  GemmPlanAttr getPlanAttr(Operation *op) const override;
  KernelFlops countFlops(Operation *op) const override;
  LogicalResult emit(OpBuilder &b, Operation *op, Value, KernelIO &io,
                     bool) const override;
  LogicalResult emitAnchored(OpBuilder &b, Operation *op, KernelIO &io,
                             ElementEpilogue epilogue) const override;

private:
  GemmTarget target;
  bool remarks;
  ProblemOf problemOf;
};

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GEMMOPEMITTER_H
