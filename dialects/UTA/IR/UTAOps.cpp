//===- UTAOps.cpp - Verifiers and builders of the uta ops -----------------===//
//
// Type and shape rules of the uta ops, and the builders that infer result
// types. The shape arithmetic itself lives in UTAShapes.cpp so that the Graph
// API can use it before any op exists; folds live in UTAFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/UTAShapes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::uta;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// Checks that all operands and results have one element type.
static LogicalResult verifySameElementType(Operation *op) {
  SmallVector<Type> types;
  for (Type type : op->getOperandTypes())
    types.push_back(getElementTypeOrSelf(type));
  for (Type type : op->getResultTypes())
    types.push_back(getElementTypeOrSelf(type));
  if (llvm::all_equal(types))
    return success();
  InFlightDiagnostic diag = op->emitOpError(
      "operands and results must have the same element type, got ");
  for (auto [i, type] : llvm::enumerate(types)) {
    if (i > 0)
      diag << (i + 1 == types.size() ? " and " : ", ");
    diag << type;
  }
  return diag;
}

/// Reductions, softmax and layer_norm are f32 only (f16 and bf16 are for
/// matmul and elementwise ops); their ODS type admits f16 and bf16 so that
/// this message, not a generic one, says so.
static LogicalResult verifyF32Only(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    Type element = getElementTypeOrSelf(type);
    if (element.isF32())
      return success();
    return op->emitOpError("requires f32 element type, got ")
           << element
           << " (f16 and bf16 are supported only by matmul and elementwise "
              "ops)";
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  return success();
}

/// Checks that the single result has shape `expected`; `what` names where
/// the expected shape comes from ("broadcast", "matmul", ...).
static LogicalResult
verifyResultShape(Operation *op, ArrayRef<int64_t> expected, StringRef what) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (result.getShape() == expected)
    return success();
  return op->emitOpError("result shape [")
         << result.getShape() << "] does not match the " << what << " shape ["
         << expected << "]";
}

/// A callback for the UTAShapes.h rules that reports on `op`.
static auto opError(Operation *op) {
  return [op] { return op->emitOpError(); };
}

/// The tensor type of `shape` with `like`'s element type, or `fallback` when
/// the shape could not be inferred. Builders use the fallback so that an
/// ill-shaped op still gets built and its verifier, rather than an assertion,
/// reports what is wrong.
static Type inferredType(FailureOr<SmallVector<int64_t>> shape, Type like,
                         Type fallback) {
  if (failed(shape))
    return fallback;
  return RankedTensorType::get(*shape, getElementTypeOrSelf(like));
}

/// The shape of a value, empty when the value is not a ranked tensor (such a
/// value fails the ODS type constraint anyway).
static ArrayRef<int64_t> shapeOf(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return type.getShape();
  return {};
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

static Type inferBroadcastType(Value lhs, Value rhs) {
  return inferredType(inferBroadcastShape(shapeOf(lhs), shapeOf(rhs)),
                      lhs.getType(), lhs.getType());
}

/// The result is the NumPy broadcast of the operands, all of one element
/// type.
static LogicalResult verifyBroadcastingBinaryOp(Operation *op) {
  if (failed(verifySameElementType(op)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferBroadcastShape(
      shapeOf(op->getOperand(0)), shapeOf(op->getOperand(1)), opError(op));
  if (failed(shape))
    return failure();
  return verifyResultShape(op, *shape, "broadcast");
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

void MatmulOp::build(OpBuilder &builder, OperationState &state, Value lhs,
                     Value rhs, bool transposeB, bool transposeA) {
  Type type = inferredType(
      inferMatmulShape(shapeOf(lhs), shapeOf(rhs), transposeB, transposeA),
      lhs.getType(), lhs.getType());
  build(builder, state, type, lhs, rhs, transposeB, transposeA);
}

LogicalResult MatmulOp::verify() {
  if (failed(verifySameElementType(*this)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferMatmulShape(
      getLhs().getType().getShape(), getRhs().getType().getShape(),
      getTransposeB(), getTransposeA(), opError(*this));
  if (failed(shape))
    return failure();
  return verifyResultShape(*this, *shape, "matmul");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static Type inferReduceType(Value input, ArrayRef<int64_t> dims,
                            bool keepDims) {
  return inferredType(inferReduceShape(shapeOf(input), dims, keepDims),
                      input.getType(), input.getType());
}

template <typename ReduceOp> static LogicalResult verifyReduceOp(ReduceOp op) {
  if (failed(verifyF32Only(op)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      inferReduceShape(op.getInput().getType().getShape(), op.getDims(),
                       op.getKeepDims(), opError(op));
  if (failed(shape))
    return failure();
  return verifyResultShape(op, *shape, "reduced");
}

//===----------------------------------------------------------------------===//
// SoftmaxOp and LayerNormOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  if (failed(verifyF32Only(*this)))
    return failure();
  return verifyDimIndex(getDimAttr().getInt(), getInput().getType().getRank(),
                        "dim", opError(*this));
}

void LayerNormOp::build(OpBuilder &builder, OperationState &state, Value input,
                        Value weight, Value bias, int64_t axis, float epsilon) {
  build(builder, state, input.getType(), input, weight, bias,
        builder.getI64IntegerAttr(axis), builder.getF32FloatAttr(epsilon));
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyF32Only(*this)))
    return failure();
  FailureOr<SmallVector<int64_t>> paramShape = inferLayerNormParamShape(
      getInput().getType().getShape(), getAxisAttr().getInt(), opError(*this));
  if (failed(paramShape))
    return failure();
  for (auto [name, value] : {std::pair<StringRef, Value>("weight", getWeight()),
                             std::pair<StringRef, Value>("bias", getBias())}) {
    ArrayRef<int64_t> shape = shapeOf(value);
    if (shape != ArrayRef<int64_t>(*paramShape))
      return emitOpError() << name << " shape [" << shape
                           << "] does not match the normalised shape ["
                           << *paramShape << "]";
  }
  APFloat epsilon = getEpsilon();
  if (!epsilon.isFinite() || epsilon.isNegative())
    return emitOpError("epsilon must be finite and non-negative, got ")
           << epsilon.convertToFloat();
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement and conversion
//===----------------------------------------------------------------------===//

void TransposeOp::build(OpBuilder &builder, OperationState &state, Value input,
                        ArrayRef<int64_t> permutation) {
  Type type = inferredType(inferTransposeShape(shapeOf(input), permutation),
                           input.getType(), input.getType());
  build(builder, state, type, input, permutation);
}

LogicalResult TransposeOp::verify() {
  if (failed(verifySameElementType(*this)))
    return failure();
  if (getRoundToTf32() && !getInput().getType().getElementType().isF32())
    return emitOpError("round_to_tf32 rounds f32 elements, got ")
           << getInput().getType().getElementType();
  FailureOr<SmallVector<int64_t>> shape = inferTransposeShape(
      getInput().getType().getShape(), getPermutation(), opError(*this));
  if (failed(shape))
    return failure();
  return verifyResultShape(*this, *shape, "transposed");
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifySameElementType(*this)))
    return failure();
  std::optional<int64_t> inputCount =
      getElementCount(getInput().getType().getShape());
  std::optional<int64_t> resultCount =
      getElementCount(getResult().getType().getShape());
  if (!inputCount || !resultCount)
    return emitOpError("element count does not fit in 64 bits");
  if (*inputCount != *resultCount)
    return emitOpError("element count differs: input has ")
           << *inputCount << " elements but result has " << *resultCount;
  return success();
}

LogicalResult BroadcastToOp::verify() {
  if (failed(verifySameElementType(*this)))
    return failure();
  return verifyBroadcastableTo(getInput().getType().getShape(),
                               getResult().getType().getShape(),
                               opError(*this));
}

LogicalResult CastOp::verify() {
  ArrayRef<int64_t> input = getInput().getType().getShape();
  ArrayRef<int64_t> result = getResult().getType().getShape();
  if (input != result)
    return emitOpError("input shape [")
           << input << "] and result shape [" << result
           << "] differ; cast changes only the element type";
  return success();
}

//===----------------------------------------------------------------------===//
// FusionOp
//===----------------------------------------------------------------------===//

LogicalResult FusionOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [i, input, arg] : llvm::enumerate(getInputs(), body.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError("input ")
             << i << " has type " << input.getType() << " but body argument "
             << i << " has type " << arg.getType();
  // The body's ops are verified after this op, so its last op may be
  // anything, a yield included: its operands are counted before one is read.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end with 'uta.yield'");
  if (yield->getNumOperands() != 1)
    return emitOpError("body must yield one value, its 'uta.yield' has ")
           << yield->getNumOperands() << " operands";
  if (yield.getValue().getType() != getResult().getType())
    return emitOpError("yields ")
           << yield.getValue().getType() << " but its result has type "
           << getResult().getType();
  if (!getRoot())
    return emitOpError("must yield a value computed in its body");
  return success();
}

Operation *FusionOp::getRoot() {
  Block &body = getBody().front();
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield->getNumOperands() != 1)
    return nullptr;
  Operation *root = yield.getValue().getDefiningOp();
  return root && root->getBlock() == &getBody().front() ? root : nullptr;
}

#define GET_OP_CLASSES
#include "dialects/UTA/IR/UTAOps.cpp.inc"
