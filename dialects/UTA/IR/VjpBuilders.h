//===- VjpBuilders.h - What the dialects' VJP rules share -------*- C++ -*-===//
//
// Small builders the vector-Jacobian products of the uta and clifford ops are
// written with: constants shaped to broadcast against a tensor, and the sum
// of a broadcast cotangent back to its operand's shape (NumPy broadcasting's
// adjoint), in a fixed order through uta.reduce_sum.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_UTA_IR_VJPBUILDERS_H
#define UTA_DIALECTS_UTA_IR_VJPBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"

namespace mlir::uta::vjp {

/// A constant `value` of `like`'s element type, shaped [1, ..., 1] with
/// `like`'s rank, so that it broadcasts against `like` in the binary ops.
Value scalarLike(OpBuilder &b, Location loc, Value like, double value);

/// A tensor of `type` that is zero everywhere (one splat constant).
Value zeros(OpBuilder &b, Location loc, RankedTensorType type);

/// An f32 constant of `shape` with the given values in row-major order.
Value f32Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  ArrayRef<float> values);

/// `gradient` (of a broadcast shape) summed over the axes that broadcasting
/// added or stretched, so that it has `target`'s shape: the adjoint of
/// broadcasting `target` to `gradient`'s shape. f16 and bf16 sum in f32.
Value sumToShape(OpBuilder &b, Location loc, Value gradient,
                 RankedTensorType target);

/// Elementwise arithmetic with broadcasting (uta.add, ...), shorthands for
/// the rules.
Value add(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value sub(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value mul(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value div(OpBuilder &b, Location loc, Value lhs, Value rhs);
/// `value * factor` with a constant factor.
Value scale(OpBuilder &b, Location loc, Value value, double factor);
/// `value + offset` with a constant offset.
Value shift(OpBuilder &b, Location loc, Value value, double offset);

} // namespace mlir::uta::vjp

#endif // UTA_DIALECTS_UTA_IR_VJPBUILDERS_H
