//===- GradeRmsNormCommon.h - The grade norms' two-pass kernel --*- C++ -*-===//
//
// grade_rms_norm and grade_rms_norm_adjoint share one kernel shape over
// [2^n, B, F]: one block per batch element, its threads striding over the
// features one at a time (as the position-wise clifford kernels:
// emitPositions in CliffordExpansion.h says why not 4). Pass 1 accumulates
// each thread's per-grade sums, the block adds them in a fixed tree in
// workgroup memory (emitBlockTreeSums: the same bits on every run, no
// atomics; every barrier at the kernel's top level, so the whole block
// reaches it), and pass 2 writes every feature from the totals. A feature's
// values (read, or recomputed when fused) stay in registers between the
// passes when a thread holds few enough of them; otherwise pass 2 reads
// (recomputes) them again.
//
// This header holds that shape; each emitter (GradeRmsNormEmitter.cpp,
// GradeRmsNormAdjointEmitter.cpp) says what a feature's blades add to the
// sums and what is written from them.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_GRADERMSNORMCOMMON_H
#define UTA_PASSES_CONVERSION_UTATOGPU_GRADERMSNORMCOMMON_H

#include "passes/Analysis/GradeNormLayout.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/Clifford/Algebra/Algebra.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::uta::clifford_kernels {

/// How a block covers the features of its batch element (the layout the
/// fusion cost model also sees), and how it accesses memory.
struct GradeNormPlan : GradeNormLayout {
  /// Whether accesses go through access groups (vectorization on).
  bool vectorize;
};

/// Where a thread of a grade-norm kernel works, and on what.
struct GradeNormKernel {
  Location loc;
  const ::uta::ga::Algebra &algebra;
  GradeNormPlan plan;
  /// The op's epsilon attribute.
  TypedAttr epsilon;
  /// The [2^n, B, F] operands read at each feature: the op's first ones.
  unsigned numInputs;
  /// The thread's lane in its block and its batch element.
  Value lane, batch;
};

/// What the grade-norm emitters share apart from their op: one block of
/// plan.group threads per batch element (the result's axis 1).
class GradeNormEmitterBase : public OpKernelEmitter {
public:
  /// The op's first `numInputs` operands are its [2^n, B, F] inputs, of one
  /// shape; a feature's values are every blade of each in turn.
  explicit GradeNormEmitterBase(unsigned numInputs) : numInputs(numInputs) {}

  int64_t getNumThreads(Operation *op, bool vectorize) const override;
  std::optional<int64_t> getBlockSize(Operation *op,
                                      bool vectorize) const override;

protected:
  GradeNormPlan getPlan(Operation *op, bool vectorize) const;
  /// The kernel of thread `thread`, emitting its lane and batch element.
  GradeNormKernel getKernel(OpBuilder &b, Operation *op, Value thread,
                            const ::uta::ga::Algebra &algebra,
                            TypedAttr epsilon, bool vectorize) const;

private:
  unsigned numInputs;
};

/// The emitter of the grade-norm op OpT (which has an algebra and an
/// epsilon): emitPasses is the kernel's own part.
template <typename OpT> class GradeNormEmitter : public GradeNormEmitterBase {
public:
  using GradeNormEmitterBase::GradeNormEmitterBase;

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const final {
    auto typed = cast<OpT>(op);
    emitPasses(b, io,
               getKernel(b, op, thread, typed.getAlgebra().getAlgebra(),
                         typed.getEpsilonAttr(), vectorize));
    return success();
  }

protected:
  /// Emits the kernel through emitGradeNormPasses.
  virtual void emitPasses(OpBuilder &b, KernelIO &io,
                          const GradeNormKernel &kernel) const = 0;
};

/// The block's totals of the sums, once pass 1 and the tree are done.
class GradeNormTotals {
public:
  /// Emits the constants F and `epsilon`; `sums` is emitBlockTreeSums'
  /// buffer.
  GradeNormTotals(OpBuilder &b, Value sums, const GradeNormKernel &kernel);
  /// The mean over the features of sum `entry`: its total / F.
  Value mean(unsigned entry);
  /// sqrt(mean(entry) + epsilon): a grade's norm when sum `entry` adds up
  /// the squares of its blades.
  Value norm(unsigned entry);

private:
  OpBuilder &b;
  Location loc;
  Value sums;
  int64_t group;
  Value count, epsilonValue;
};

/// What one grade-norm kernel does with a feature's values: every blade of
/// each input in turn (GradeNormKernel::numInputs).
struct GradeNormSteps {
  /// How many sums a thread accumulates and the block adds up.
  unsigned numSums;
  /// Adds to `sums` what blade `blade`, of grade `grade`, of a feature
  /// adds; called for each grade's blades in order.
  llvm::function_ref<void(OpBuilder &, MutableArrayRef<Value> sums,
                          ArrayRef<Value> values, unsigned grade,
                          unsigned blade)>
      addBlade;
  /// Emitted once between the passes, from the block's totals.
  llvm::function_ref<void(GradeNormTotals &totals)> useTotals;
  /// Blade `blade` of the result at a feature.
  llvm::function_ref<Value(OpBuilder &, ArrayRef<Value> values, unsigned blade)>
      resultBlade;
};

/// Emits both passes and the tree between them for `kernel`'s thread.
void emitGradeNormPasses(OpBuilder &b, KernelIO &io,
                         const GradeNormKernel &kernel,
                         const GradeNormSteps &steps);

} // namespace mlir::uta::clifford_kernels

#endif // UTA_PASSES_CONVERSION_UTATOGPU_GRADERMSNORMCOMMON_H
