//===- UTAOps.cpp - Verifiers of the uta ops ------------------------------===//
//
// Shape and type rules of SPEC.md §1.1. Folds live in UTAFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::uta;

/// Checks that `result` is the NumPy broadcast of `lhs` and `rhs` and that all
/// three share one element type.
static LogicalResult verifyBroadcastingBinaryOp(Operation *op) {
  auto lhs = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = cast<RankedTensorType>(op->getOperand(1).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (lhs.getElementType() != rhs.getElementType() ||
      lhs.getElementType() != result.getElementType())
    return op->emitOpError("operands and result must have the same element "
                           "type, got ")
           << lhs.getElementType() << ", " << rhs.getElementType() << " and "
           << result.getElementType();
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(lhs.getShape(), rhs.getShape(),
                                          shape))
    return op->emitOpError("operand shapes [")
           << lhs.getShape() << "] and [" << rhs.getShape()
           << "] are not broadcast-compatible";
  if (ArrayRef<int64_t>(shape) != result.getShape())
    return op->emitOpError("result shape [")
           << result.getShape() << "] is not the broadcast shape [" << shape
           << "] of the operands";
  return success();
}

LogicalResult AddOp::verify() { return verifyBroadcastingBinaryOp(*this); }

#define GET_OP_CLASSES
#include "dialects/UTA/IR/UTAOps.cpp.inc"
