//===- ScalarMath.h - f32 scalar code of the elementwise ops ----*- C++ -*-===//
//
// The scalar formula of each elementwise op, shared by every kernel that
// computes one (plain, fused, or the gate inside a clifford layer). No
// fast-math: IEEE f32 operations and the math dialect's accurate functions.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_SCALARMATH_H
#define UTA_PASSES_CONVERSION_UTATOGPU_SCALARMATH_H

#include "mlir/IR/Builders.h"

namespace mlir::uta {

/// Emits `op`'s elementwise formula on f32 `operands`; fails (with a located
/// error) when `op` is not an elementwise op.
FailureOr<Value> emitScalarElementwise(OpBuilder &b, Operation *op,
                                       ValueRange operands);

/// Phi(x) = 0.5 (1 + erf(x / sqrt 2)), the exact GELU gate.
Value emitGeluGate(OpBuilder &b, Location loc, Value x);

/// phi(x) = exp(-x^2 / 2) / sqrt(2 pi), the standard normal density: the
/// derivative of the gate.
Value emitNormalDensity(OpBuilder &b, Location loc, Value x);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_SCALARMATH_H
