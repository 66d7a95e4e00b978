//===- Passes.h - UTA transformation passes ---------------------*- C++ -*-===//
//
// Declares every pass of passes/Transforms (from Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_TRANSFORMS_PASSES_H
#define UTA_PASSES_TRANSFORMS_PASSES_H

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uta {

class GradeAnalysis;

#define GEN_PASS_DECL
#include "passes/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Transforms/Passes.h.inc"

/// The rewrites of clifford-simplify-grades: projections onto known grades,
/// provably zero results, and the operand blade sets of products. The
/// patterns ask `analysis`, which must outlive them and be told when ops are
/// erased (GradeAnalysis::forget).
void populateCliffordSimplifyGradesPatterns(RewritePatternSet &patterns,
                                            GradeAnalysis &analysis);

/// fc_product(scalar_gate(x), scalar_gate(y), w) -> fc_product(pair_gate(x,
/// y), y, w) where nothing else reads the gates, or with `gateOperand`,
/// where the input features make 16-byte f32 rows, fc_product(x, y, w) gate
/// pair_gate_factor(x, y); uta-fold-scalar-gates.
void populateFoldScalarGatesPatterns(RewritePatternSet &patterns,
                                     bool gateOperand = false);

/// fc_product with f32 weights -> the product of its weights transposed to
/// K-major ([P, Fout, Fin], transpose_weights), the copy rounded to TF32
/// with `roundToTf32`; uta-tensor-core-layouts.
void populateTensorCoreLayoutPatterns(RewritePatternSet &patterns,
                                      bool roundToTf32 = false);

/// reduce_sum and reduce_max of a long leading block of dimensions to few
/// outputs -> the reduction of C runs, then of the C partial results;
/// uta-split-reductions.
void populateSplitReductionPatterns(RewritePatternSet &patterns);

/// What the gradient transformation builds (uta-differentiate).
struct DifferentiateOptions {
  /// The arguments to differentiate with respect to; empty: all of them.
  llvm::SmallVector<unsigned> wrt;
  /// Build @f_fwd_bwd (results, then gradients) instead of @f_vjp.
  bool joint = false;
  /// Report the forward values that the backward reads, as remarks.
  bool remarks = false;
};

/// Builds the gradient function of `function` next to it (see
/// uta-differentiate) and returns it; `function` is left as it was. Fails
/// with an error at the function or at the op that cannot be
/// differentiated.
FailureOr<func::FuncOp>
buildGradientFunction(func::FuncOp function,
                      const DifferentiateOptions &options);

/// What the training partition builds (uta-partition-training).
struct TrainingPairOptions {
  /// The arguments to differentiate with respect to; empty: all of them.
  llvm::SmallVector<unsigned> wrt;
  /// Report each value saved for the backward or recomputed there, and why.
  bool remarks = false;
};

/// The two halves of a training step of `@f(inputs...) -> (results...)`:
///   @f_forward(inputs...) -> (results..., residuals...)
///   @f_backward(saved..., cotangents...) -> (gradients...)
struct TrainingPair {
  func::FuncOp forward, backward;
  /// How many of the forward's results, after f's own, are residuals.
  unsigned numResiduals = 0;
  /// What the backward's leading arguments are: for each, an index into
  /// the forward's arguments followed by its results (an argument, one of
  /// f's results, or a residual). Also the backward's `uta.saved`.
  llvm::SmallVector<int64_t> saved;
};

/// Builds the forward and backward functions of `function` next to it (see
/// uta-partition-training); `function` is left as it was. Fails with an
/// error at the function, or at the op that cannot be differentiated.
FailureOr<TrainingPair> buildTrainingPair(func::FuncOp function,
                                          const TrainingPairOptions &options);

/// The function a module pass works on: the one named `name`, or with an
/// empty name the module's only public function; otherwise an error that
/// names `pass`.
FailureOr<func::FuncOp>
selectPassFunction(ModuleOp module, llvm::StringRef name, llvm::StringRef pass);

} // namespace mlir::uta

#endif // UTA_PASSES_TRANSFORMS_PASSES_H
