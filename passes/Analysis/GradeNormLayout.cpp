//===- GradeNormLayout.cpp - How the grade-norm kernels cover features ----===//

#include "passes/Analysis/GradeNormLayout.h"

#include "dialects/Clifford/IR/CliffordOps.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;

/// The most values a thread keeps in registers between the passes.
static constexpr int64_t kMaxResidentValues = 64;

GradeNormLayout mlir::uta::getGradeNormLayout(int64_t features,
                                              int64_t valuesPerFeature) {
  GradeNormLayout layout;
  layout.features = features;
  layout.valuesPerFeature = valuesPerFeature;
  layout.group = std::clamp<int64_t>(llvm::PowerOf2Ceil(features), 32, 256);
  layout.rounds = llvm::divideCeil(features, layout.group);
  layout.resident = layout.rounds * valuesPerFeature <= kMaxResidentValues;
  return layout;
}

GradeNormLayout mlir::uta::getGradeNormLayout(Operation *op) {
  // x is the last operand of both ops; the adjoint also reads the cotangent.
  int64_t inputs = isa<clifford::GradeRmsNormAdjointOp>(op) ? 2 : 1;
  auto x = cast<RankedTensorType>(op->getOperands().back().getType());
  return getGradeNormLayout(/*features=*/x.getDimSize(2),
                            /*valuesPerFeature=*/inputs * x.getDimSize(0));
}
