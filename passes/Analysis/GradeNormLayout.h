//===- GradeNormLayout.h - How grade norms cover features -------*- C++ -*-===//
//
// clifford.grade_rms_norm and its adjoint run one block per batch element,
// whose threads stride over the features in rounds; a thread keeps the
// values it read in the first pass in registers for the second when they
// are few enough, and reads them again otherwise. The layout lives here,
// below the passes, because two of them need it: the lowering
// (GradeRmsNormCommon.cpp) builds the kernels from it, and the fusion cost
// model (FuseKernels.cpp) charges a fused producer for one computation per
// position when the values stay in registers, two when they are read again.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_GRADENORMLAYOUT_H
#define UTA_PASSES_ANALYSIS_GRADENORMLAYOUT_H

#include <cstdint>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::uta {

/// How a block of a grade-norm kernel covers the features of its batch
/// element.
struct GradeNormLayout {
  int64_t features;
  /// The values a thread reads at one feature.
  int64_t valuesPerFeature;
  /// Threads per block: a power of two covering the features, from a warp
  /// to 256.
  int64_t group;
  /// Features per thread (the last round may leave some threads without).
  int64_t rounds;
  /// Whether the features' values stay in registers between the passes.
  bool resident;
};

/// The layout for `features` features of `valuesPerFeature` values each.
GradeNormLayout getGradeNormLayout(int64_t features, int64_t valuesPerFeature);

/// The layout of a clifford.grade_rms_norm (one input of 2^n blades per
/// feature) or clifford.grade_rms_norm_adjoint (two).
GradeNormLayout getGradeNormLayout(Operation *op);

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_GRADENORMLAYOUT_H
