//===- VjpBuilders.cpp - What the VJP rules of both dialects share --------===//

#include "dialects/UTA/IR/VjpBuilders.h"

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace mlir::uta;

Value vjp::scalarLike(OpBuilder &b, Location loc, Value like, double value) {
  auto likeType = cast<RankedTensorType>(like.getType());
  SmallVector<int64_t> ones(likeType.getRank(), 1);
  auto type = RankedTensorType::get(ones, likeType.getElementType());
  auto element = FloatAttr::get(likeType.getElementType(), value);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, element));
}

Value vjp::zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  auto element = FloatAttr::get(type.getElementType(), 0.0);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, element));
}

Value vjp::f32Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       ArrayRef<float> values) {
  auto type = RankedTensorType::get(shape, b.getF32Type());
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

Value vjp::sumToShape(OpBuilder &b, Location loc, Value gradient,
                      RankedTensorType target) {
  auto type = cast<RankedTensorType>(gradient.getType());
  if (type.getShape() == target.getShape())
    return gradient;
  // Leading axes that broadcasting added, and axes where the target has 1.
  int64_t added = type.getRank() - target.getRank();
  SmallVector<int64_t> dims;
  for (int64_t axis = 0; axis < type.getRank(); ++axis)
    if (axis < added ||
        (target.getDimSize(axis - added) == 1 && type.getDimSize(axis) != 1))
      dims.push_back(axis);
  Type element = type.getElementType();
  Value sum = gradient;
  // Reductions are f32 only; halves sum in f32 and round once.
  if (!element.isF32())
    sum = CastOp::create(b, loc, type.clone(b.getF32Type()), sum);
  if (!dims.empty())
    sum = ReduceSumOp::create(b, loc, sum, dims, /*keepDims=*/false);
  auto sumType = cast<RankedTensorType>(sum.getType());
  if (sumType.getShape() != target.getShape())
    sum =
        ReshapeOp::create(b, loc, target.clone(sumType.getElementType()), sum);
  if (!element.isF32())
    sum = CastOp::create(b, loc, target, sum);
  return sum;
}

Value vjp::add(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return AddOp::create(b, loc, lhs, rhs);
}
Value vjp::sub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return SubOp::create(b, loc, lhs, rhs);
}
Value vjp::mul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return MulOp::create(b, loc, lhs, rhs);
}
Value vjp::div(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return DivOp::create(b, loc, lhs, rhs);
}
Value vjp::scale(OpBuilder &b, Location loc, Value value, double factor) {
  return mul(b, loc, value, scalarLike(b, loc, value, factor));
}
Value vjp::shift(OpBuilder &b, Location loc, Value value, double offset) {
  return add(b, loc, value, scalarLike(b, loc, value, offset));
}
