//===- FcProductRows.h - fc_product operands in tensor-map rows -*- C++ -*-===//
//
// The condition the sm_90a preparations of fc_product share
// (uta-tensor-core-layouts, uta-fold-scalar-gates): the warp-specialised
// schedule copies x, y, the gate and K-major weights by TMA, in rows of
// input features that must be multiples of 16 bytes.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_TRANSFORMS_FCPRODUCTROWS_H
#define UTA_PASSES_TRANSFORMS_FCPRODUCTROWS_H

#include "dialects/Clifford/IR/CliffordOps.h"

namespace mlir::uta {

/// Whether fc_product `op` is f32 (x and the weights) with its input
/// features making rows of 16-byte multiples (Fin a multiple of 4).
inline bool hasTensorMapRows(clifford::FcProductOp op) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto weights = cast<RankedTensorType>(op.getWeights().getType());
  return lhs.getElementType().isF32() && weights.getElementType().isF32() &&
         lhs.getShape().back() % 4 == 0;
}

} // namespace mlir::uta

#endif // UTA_PASSES_TRANSFORMS_FCPRODUCTROWS_H
