//===- CliffordOps.cpp - Verifiers of the clifford ops --------------------===//
//
// The shape rules documented in the dialect description (CliffordDialect.td):
// multivector operands and the result have equal ranks, the blade axis has
// 2^n entries, and the other axes broadcast NumPy-style; the layer ops take
// [2^n, B, F] with blade_axis 0. Folds live in CliffordFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <bit>
#include <cmath>

using namespace mlir;
using namespace mlir::uta::clifford;

namespace {
/// An operand or result as the diagnostics name it.
struct NamedTensor {
  StringRef name;
  RankedTensorType type;
};
} // namespace

/// A shape as "8x4x16".
static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

static NamedTensor named(StringRef name, Value value) {
  return {name, cast<RankedTensorType>(value.getType())};
}

/// Re-checks the signature so that ops built in C++ with an unchecked
/// AlgebraAttr::get are caught before getAlgebra() builds its tables.
static LogicalResult verifyAlgebra(Operation *op, AlgebraAttr algebra) {
  return AlgebraAttr::verify([&] { return op->emitOpError(); }, algebra.getP(),
                             algebra.getQ(), algebra.getR());
}

static LogicalResult verifyBladeAxisInRange(Operation *op, int64_t bladeAxis,
                                            int64_t rank) {
  if (bladeAxis < 0 || bladeAxis >= rank)
    return op->emitOpError() << "blade_axis " << bladeAxis
                             << " is out of range for rank " << rank;
  return success();
}

static LogicalResult verifyBladeSize(Operation *op, AlgebraAttr algebra,
                                     int64_t bladeAxis, NamedTensor t) {
  int64_t size = t.type.getDimSize(bladeAxis);
  if (size != algebra.getNumBlades())
    return op->emitOpError()
           << "blade axis has size " << size << " but " << algebra << " has "
           << algebra.getNumBlades() << " blades (" << t.name << ")";
  return success();
}

/// The shared rules of the product, involution, projection, gate and
/// sandwich ops. The result's blade axis has 2^n entries, or 1 when
/// `scalarResult` (scalar_product).
static LogicalResult verifyBroadcastOp(Operation *op, AlgebraAttr algebra,
                                       int64_t bladeAxis,
                                       ArrayRef<NamedTensor> operands,
                                       NamedTensor result, bool scalarResult) {
  if (failed(verifyAlgebra(op, algebra)))
    return failure();

  // Ranks are never aligned implicitly: the blade axis must sit at the same
  // position in every operand.
  const NamedTensor &first = operands.front();
  int64_t rank = first.type.getRank();
  for (const NamedTensor &t : llvm::concat<const NamedTensor>(
           operands.drop_front(), ArrayRef<NamedTensor>(result))) {
    if (t.type.getRank() != rank)
      return op->emitOpError() << t.name << " has rank " << t.type.getRank()
                               << " but " << first.name << " has rank " << rank;
  }
  if (failed(verifyBladeAxisInRange(op, bladeAxis, rank)))
    return failure();

  for (const NamedTensor &t : operands)
    if (failed(verifyBladeSize(op, algebra, bladeAxis, t)))
      return failure();
  int64_t resultSize = result.type.getDimSize(bladeAxis);
  if (scalarResult && resultSize != 1)
    return op->emitOpError() << "result blade axis has size " << resultSize
                             << " but a scalar product has size 1";
  if (!scalarResult && failed(verifyBladeSize(op, algebra, bladeAxis, result)))
    return failure();

  // NumPy broadcasting over every other axis.
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == bladeAxis)
      continue;
    int64_t size = 1;
    const NamedTensor *sizeFrom = nullptr;
    for (const NamedTensor &t : operands) {
      int64_t s = t.type.getDimSize(axis);
      if (s == 1)
        continue;
      if (sizeFrom && s != size)
        return op->emitOpError() << sizeFrom->name << " and " << t.name
                                 << " have incompatible sizes " << size
                                 << " and " << s << " at axis " << axis;
      size = s;
      sizeFrom = &t;
    }
    int64_t got = result.type.getDimSize(axis);
    if (got != size)
      return op->emitOpError()
             << "result has size " << got << " at axis " << axis
             << " but the operands broadcast to " << size;
  }
  return success();
}

/// Layer ops: blade_axis 0 and a rank-3 [2^n, B, F] operand.
static LogicalResult verifyLayerOperand(Operation *op, AlgebraAttr algebra,
                                        int64_t bladeAxis, NamedTensor t) {
  if (bladeAxis != 0)
    return op->emitOpError()
           << "blade_axis is " << bladeAxis
           << " but the layer ops require blade axis 0 ([blades, batch, "
              "features])";
  if (t.type.getRank() != 3)
    return op->emitOpError() << t.name << " has rank " << t.type.getRank()
                             << " but the layer ops take rank 3 ([blades, "
                                "batch, features])";
  return verifyBladeSize(op, algebra, bladeAxis, t);
}

/// weighted_product and fc_product: x and y of one shape [2^n, B, F].
static LogicalResult verifyLayerInputs(Operation *op, AlgebraAttr algebra,
                                       int64_t bladeAxis, NamedTensor lhs,
                                       NamedTensor rhs) {
  if (failed(verifyAlgebra(op, algebra)) ||
      failed(verifyLayerOperand(op, algebra, bladeAxis, lhs)) ||
      failed(verifyLayerOperand(op, algebra, bladeAxis, rhs)))
    return failure();
  if (lhs.type.getShape() != rhs.type.getShape())
    return op->emitOpError()
           << rhs.name << " has shape " << shapeStr(rhs.type.getShape())
           << " but " << lhs.name << " has shape "
           << shapeStr(lhs.type.getShape());
  return success();
}

static LogicalResult verifyPathCount(Operation *op, AlgebraAttr algebra,
                                     int64_t paths) {
  unsigned expected = algebra.getAlgebra().numPaths();
  if (paths != expected)
    return op->emitOpError() << "weights have " << paths << " paths but "
                             << algebra << " has " << expected;
  return success();
}

/// An optional blade set (`lhs_blades`, ...) names only blades of `algebra`.
static LogicalResult verifyBladeSet(Operation *op, AlgebraAttr algebra,
                                    BladeSetAttr set, StringRef name) {
  if (!set)
    return success();
  int64_t blades = algebra.getNumBlades();
  uint64_t outside = blades >= 64 ? 0 : set.getBlades() >> blades;
  if (outside == 0)
    return success();
  return op->emitOpError() << name << " names blade "
                           << blades + std::countr_zero(outside) << " but "
                           << algebra << " has " << blades << " blades";
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// The binary products share one rule set.
template <typename OpTy>
static LogicalResult verifyBinaryProduct(OpTy op, bool scalarResult) {
  NamedTensor operands[] = {named("lhs", op.getLhs()),
                            named("rhs", op.getRhs())};
  if (failed(verifyBroadcastOp(op, op.getAlgebra(), op.getBladeAxis(), operands,
                               named("result", op.getResult()), scalarResult)))
    return failure();
  return success(
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getLhsBladesAttr(),
                               "lhs_blades")) &&
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getRhsBladesAttr(),
                               "rhs_blades")));
}

LogicalResult GeometricProductOp::verify() {
  return verifyBinaryProduct(*this, /*scalarResult=*/false);
}

LogicalResult OuterProductOp::verify() {
  return verifyBinaryProduct(*this, /*scalarResult=*/false);
}

LogicalResult LeftContractionOp::verify() {
  return verifyBinaryProduct(*this, /*scalarResult=*/false);
}

LogicalResult ScalarProductOp::verify() {
  return verifyBinaryProduct(*this, /*scalarResult=*/true);
}

LogicalResult SandwichOp::verify() {
  NamedTensor operands[] = {named("rotor", getRotor()),
                            named("input", getInput())};
  if (failed(verifyBroadcastOp(*this, getAlgebra(), getBladeAxis(), operands,
                               named("result", getResult()),
                               /*scalarResult=*/false)))
    return failure();
  return success(
      succeeded(verifyBladeSet(*this, getAlgebra(), getRotorBladesAttr(),
                               "rotor_blades")) &&
      succeeded(verifyBladeSet(*this, getAlgebra(), getInputBladesAttr(),
                               "input_blades")));
}

//===----------------------------------------------------------------------===//
// Involutions, projection, dual and gate
//===----------------------------------------------------------------------===//

/// Unary ops return their input's type (AllTypesMatch), so only the blade
/// axis is left to check.
template <typename OpTy> static LogicalResult verifyUnary(OpTy op) {
  NamedTensor input = named("input", op.getInput());
  return verifyBroadcastOp(op, op.getAlgebra(), op.getBladeAxis(), input,
                           named("result", op.getResult()),
                           /*scalarResult=*/false);
}

LogicalResult ReverseOp::verify() { return verifyUnary(*this); }

LogicalResult GradeInvolutionOp::verify() { return verifyUnary(*this); }

LogicalResult ConjugateOp::verify() { return verifyUnary(*this); }

LogicalResult ScalarGateOp::verify() { return verifyUnary(*this); }

LogicalResult PairGateOp::verify() {
  NamedTensor operands[] = {named("lhs", getLhs()), named("rhs", getRhs())};
  return verifyBroadcastOp(*this, getAlgebra(), getBladeAxis(), operands,
                           named("result", getResult()),
                           /*scalarResult=*/false);
}

LogicalResult GradeProjectOp::verify() {
  if (failed(verifyUnary(*this)))
    return failure();
  ArrayRef<int64_t> grades = getGrades();
  if (grades.empty())
    return emitOpError() << "grades must not be empty";
  int64_t maxGrade = getAlgebra().getDimension();
  for (auto [i, grade] : llvm::enumerate(grades)) {
    if (grade < 0 || grade > maxGrade)
      return emitOpError() << "grade " << grade << " is out of range for "
                           << getAlgebra() << ", whose grades are 0 to "
                           << maxGrade;
    if (i > 0 && grade <= grades[i - 1])
      return emitOpError() << "grades must be unique and ascending, but "
                           << grade << " follows " << grades[i - 1];
  }
  return success();
}

LogicalResult DualOp::verify() {
  if (failed(verifyUnary(*this)))
    return failure();
  if (getAlgebra().getAlgebra().isDegenerate())
    return emitOpError() << "dual is undefined in the degenerate algebra "
                         << getAlgebra();
  return success();
}

//===----------------------------------------------------------------------===//
// Flash Clifford layers
//===----------------------------------------------------------------------===//

/// lhs_blades and rhs_blades of weighted_product and fc_product.
template <typename OpTy> static LogicalResult verifyLayerBladeSets(OpTy op) {
  return success(
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getLhsBladesAttr(),
                               "lhs_blades")) &&
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getRhsBladesAttr(),
                               "rhs_blades")));
}

/// pair_gate_factor's result and fc_product's gate: one factor per (batch
/// element, feature) of the layer operand `like`, [B, F].
static LogicalResult verifyGateFactors(Operation *op, NamedTensor gate,
                                       NamedTensor like) {
  ArrayRef<int64_t> expected = like.type.getShape().drop_front();
  if (gate.type.getShape() != expected)
    return op->emitOpError()
           << gate.name << " has shape " << shapeStr(gate.type.getShape())
           << " but " << like.name
           << " gives [batch, features] = " << shapeStr(expected);
  return success();
}

/// weighted_product and its adjoint: weights [features, paths] for the
/// features of `like`, and a result of `like`'s shape.
template <typename OpTy>
static LogicalResult verifyPathWeightsAndResult(OpTy op, NamedTensor like) {
  auto weights = cast<RankedTensorType>(op.getWeights().getType());
  if (weights.getRank() != 2)
    return op.emitOpError() << "weights have rank " << weights.getRank()
                            << " but weighted_product takes rank 2 "
                               "([features, paths])";
  int64_t features = like.type.getDimSize(2);
  if (weights.getDimSize(0) != features)
    return op.emitOpError()
           << "weights have " << weights.getDimSize(0) << " features but "
           << like.name << " has " << features;
  if (failed(verifyPathCount(op, op.getAlgebra(), weights.getDimSize(1))))
    return failure();
  auto result = cast<RankedTensorType>(op.getResult().getType());
  if (result.getShape() != like.type.getShape())
    return op.emitOpError()
           << "result has shape " << shapeStr(result.getShape()) << " but "
           << like.name << " has shape " << shapeStr(like.type.getShape());
  return success();
}

LogicalResult WeightedProductOp::verify() {
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  if (failed(
          verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)) ||
      failed(verifyLayerBladeSets(*this)))
    return failure();

  return verifyPathWeightsAndResult(*this, lhs);
}

/// fc_product's weights: [paths, input features, output features], or
/// [paths, output features, input features] with transpose_weights, for
/// `inFeatures` input features; their output features in `outFeatures`.
static LogicalResult verifyFcProductWeights(Operation *op, AlgebraAttr algebra,
                                            Value weightsValue, bool transposed,
                                            NamedTensor input,
                                            int64_t &outFeatures) {
  auto weights = cast<RankedTensorType>(weightsValue.getType());
  if (weights.getRank() != 3)
    return op->emitOpError() << "weights have rank " << weights.getRank()
                             << " but fc_product takes rank 3 ("
                             << (transposed ? "[paths, output features, input "
                                              "features] with transpose_weights"
                                            : "[paths, input features, output "
                                              "features]")
                             << ")";
  if (failed(verifyPathCount(op, algebra, weights.getDimSize(0))))
    return failure();
  int64_t features = input.type.getDimSize(2);
  int64_t inputAxis = transposed ? 2 : 1, outputAxis = transposed ? 1 : 2;
  if (weights.getDimSize(inputAxis) != features)
    return op->emitOpError() << "weights have " << weights.getDimSize(inputAxis)
                             << " input features (axis " << inputAxis
                             << ") but " << input.name << " has " << features;
  outFeatures = weights.getDimSize(outputAxis);
  return success();
}

LogicalResult FcProductOp::verify() {
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  int64_t outFeatures = 0;
  if (failed(
          verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)) ||
      failed(verifyLayerBladeSets(*this)) ||
      failed(verifyFcProductWeights(*this, getAlgebra(), getWeights(),
                                    getTransposeWeights(), lhs, outFeatures)))
    return failure();
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t expected[] = {lhs.type.getDimSize(0), lhs.type.getDimSize(1),
                        outFeatures};
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result has shape " << shapeStr(result.getShape())
                         << " but lhs and weights give " << shapeStr(expected);
  if (Value gate = getGate())
    return verifyGateFactors(*this, named("gate", gate), lhs);
  return success();
}

LogicalResult PairGateFactorOp::verify() {
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  if (failed(verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)))
    return failure();
  return verifyGateFactors(*this, named("result", getResult()), lhs);
}

LogicalResult GradeRmsNormOp::verify() {
  if (failed(verifyAlgebra(*this, getAlgebra())) ||
      failed(verifyLayerOperand(*this, getAlgebra(), getBladeAxis(),
                                named("input", getInput()))))
    return failure();
  // Epsilon keeps the root positive; NaN or infinity would poison every
  // output.
  APFloat epsilon = getEpsilon();
  if (!epsilon.isFinite() || (epsilon.isNegative() && !epsilon.isZero()))
    return emitOpError() << "epsilon must be finite and non-negative, got "
                         << epsilon.convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// Adjoints
//===----------------------------------------------------------------------===//

/// The shapes of product_adjoint's operands and result.
static LogicalResult verifyProductAdjointShapes(ProductAdjointOp op) {
  AlgebraAttr algebra = op.getAlgebra();
  int64_t bladeAxis = op.getBladeAxis();
  NamedTensor cotangent = named("cotangent", op.getCotangent());
  NamedTensor other = named("other", op.getOther());
  NamedTensor result = named("result", op.getResult());
  if (op.getProduct() != ProductKind::scalar) {
    NamedTensor operands[] = {cotangent, other};
    return verifyBroadcastOp(op, algebra, bladeAxis, operands, result,
                             /*scalarResult=*/false);
  }
  // The cotangent of a scalar product has one blade; the other axes of the
  // three tensors follow the usual rules.
  NamedTensor operands[] = {other};
  if (failed(verifyAlgebra(op, algebra)))
    return failure();
  if (cotangent.type.getRank() != other.type.getRank() ||
      result.type.getRank() != other.type.getRank())
    return op.emitOpError() << "cotangent, other and result must have one rank";
  if (failed(verifyBladeAxisInRange(op, bladeAxis, other.type.getRank())) ||
      failed(verifyBladeSize(op, algebra, bladeAxis, other)) ||
      failed(verifyBladeSize(op, algebra, bladeAxis, result)))
    return failure();
  if (cotangent.type.getDimSize(bladeAxis) != 1)
    return op.emitOpError()
           << "cotangent of a scalar product has blade axis "
              "size "
           << cotangent.type.getDimSize(bladeAxis) << " but must have size 1";
  for (int64_t axis = 0; axis < other.type.getRank(); ++axis) {
    if (axis == bladeAxis)
      continue;
    int64_t a = cotangent.type.getDimSize(axis);
    int64_t b = operands[0].type.getDimSize(axis);
    if (a != 1 && b != 1 && a != b)
      return op.emitOpError() << "cotangent and other have incompatible sizes "
                              << a << " and " << b << " at axis " << axis;
    if (result.type.getDimSize(axis) != std::max(a, b))
      return op.emitOpError()
             << "result has size " << result.type.getDimSize(axis)
             << " at axis " << axis << " but the operands broadcast to "
             << std::max(a, b);
  }
  return success();
}

/// cotangent_blades and other_blades of the products' adjoints.
template <typename OpTy> static LogicalResult verifyAdjointBladeSets(OpTy op) {
  return success(
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getCotangentBladesAttr(),
                               "cotangent_blades")) &&
      succeeded(verifyBladeSet(op, op.getAlgebra(), op.getOtherBladesAttr(),
                               "other_blades")));
}

LogicalResult ProductAdjointOp::verify() {
  if (failed(verifyProductAdjointShapes(*this)) ||
      failed(verifyAdjointBladeSets(*this)))
    return failure();
  // The cotangent of a scalar product has the scalar only.
  BladeSetAttr cotangentBlades = getCotangentBladesAttr();
  if (getProduct() == ProductKind::scalar && cotangentBlades &&
      cotangentBlades.getBlades() > 1)
    return emitOpError()
           << "cotangent_blades names blade "
           << std::countr_zero(cotangentBlades.getBlades() & ~uint64_t(1))
           << " but the cotangent of a scalar product has blade 0 only";
  return success();
}

LogicalResult WeightedProductAdjointOp::verify() {
  NamedTensor cotangent = named("cotangent", getCotangent());
  NamedTensor other = named("other", getOther());
  if (failed(verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), cotangent,
                               other)))
    return failure();
  if (failed(verifyPathWeightsAndResult(*this, cotangent)))
    return failure();
  return verifyAdjointBladeSets(*this);
}

/// An adjoint's result has the shape of the operand `other` it scales.
static LogicalResult verifyResultHasShapeOf(Operation *op, Value resultValue,
                                            NamedTensor other) {
  auto result = cast<RankedTensorType>(resultValue.getType());
  if (result.getShape() != other.type.getShape())
    return op->emitOpError()
           << "result has shape " << shapeStr(result.getShape()) << " but "
           << other.name << " has shape " << shapeStr(other.type.getShape());
  return success();
}

LogicalResult FcProductAdjointOp::verify() {
  NamedTensor cotangent = named("cotangent", getCotangent());
  NamedTensor other = named("other", getOther());
  int64_t outFeatures = 0;
  if (failed(verifyAlgebra(*this, getAlgebra())) ||
      failed(
          verifyLayerOperand(*this, getAlgebra(), getBladeAxis(), cotangent)) ||
      failed(verifyLayerOperand(*this, getAlgebra(), getBladeAxis(), other)) ||
      failed(verifyFcProductWeights(*this, getAlgebra(), getWeights(),
                                    getTransposeWeights(), other, outFeatures)))
    return failure();
  if (cotangent.type.getDimSize(1) != other.type.getDimSize(1))
    return emitOpError() << "cotangent has batch size "
                         << cotangent.type.getDimSize(1) << " but other has "
                         << other.type.getDimSize(1);
  if (cotangent.type.getDimSize(2) != outFeatures)
    return emitOpError() << "cotangent has " << cotangent.type.getDimSize(2)
                         << " features but the weights have " << outFeatures
                         << " output features";
  return verifyResultHasShapeOf(*this, getResult(), other);
}

LogicalResult FcProductWeightGradientOp::verify() {
  NamedTensor cotangent = named("cotangent", getCotangent());
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  if (failed(
          verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)) ||
      failed(
          verifyLayerOperand(*this, getAlgebra(), getBladeAxis(), cotangent)))
    return failure();
  // lhs and rhs: [2^n, B, Fin], or [2^n, Fin, B] with transpose_pairs;
  // the cotangent [2^n, B, Fout], or [2^n, Fout, B] with
  // transpose_cotangent.
  int64_t batchAxis = getTransposePairs() ? 2 : 1;
  int64_t cotangentBatchAxis = getTransposeCotangent() ? 2 : 1;
  if (cotangent.type.getDimSize(cotangentBatchAxis) !=
      lhs.type.getDimSize(batchAxis))
    return emitOpError() << "cotangent has batch size "
                         << cotangent.type.getDimSize(cotangentBatchAxis)
                         << " (axis " << cotangentBatchAxis << ") but lhs has "
                         << lhs.type.getDimSize(batchAxis) << " (axis "
                         << batchAxis << ")";
  int64_t runs = getBatchRuns(), batch = lhs.type.getDimSize(batchAxis);
  if (runs < 1 || batch % runs != 0)
    return emitOpError() << "batch_runs " << runs
                         << " must be positive and divide the batch of "
                         << batch;
  int64_t paths = getAlgebra().getAlgebra().numPaths();
  int64_t inFeatures = lhs.type.getDimSize(3 - batchAxis),
          outFeatures = cotangent.type.getDimSize(3 - cotangentBatchAxis);
  SmallVector<int64_t> expected = {paths, inFeatures, outFeatures};
  if (getTransposeWeights())
    std::swap(expected[1], expected[2]);
  if (runs > 1)
    expected.insert(expected.begin(), runs);
  auto result = cast<RankedTensorType>(getResult().getType());
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result has shape " << shapeStr(result.getShape())
                         << " but the paths of " << getAlgebra()
                         << (runs > 1 ? ", batch_runs" : "")
                         << ", lhs and cotangent give " << shapeStr(expected);
  return success();
}

LogicalResult FcProductPairCotangentsOp::verify() {
  NamedTensor cotangent = named("cotangent", getCotangent());
  if (failed(verifyAlgebra(*this, getAlgebra())) ||
      failed(
          verifyLayerOperand(*this, getAlgebra(), getBladeAxis(), cotangent)))
    return failure();
  auto weights = cast<RankedTensorType>(getWeights().getType());
  bool transposed = getTransposeWeights();
  if (weights.getRank() != 3)
    return emitOpError() << "weights have rank " << weights.getRank()
                         << " but take rank 3 ("
                         << (transposed ? "[paths, output features, input "
                                          "features] with transpose_weights"
                                        : "[paths, input features, output "
                                          "features]")
                         << ")";
  if (failed(verifyPathCount(*this, getAlgebra(), weights.getDimSize(0))))
    return failure();
  int64_t inputAxis = transposed ? 2 : 1, outputAxis = transposed ? 1 : 2;
  if (cotangent.type.getDimSize(2) != weights.getDimSize(outputAxis))
    return emitOpError() << "cotangent has " << cotangent.type.getDimSize(2)
                         << " features but the weights have "
                         << weights.getDimSize(outputAxis)
                         << " output features (axis " << outputAxis << ")";
  int64_t expected[] = {getAlgebra().getAlgebra().numPathGroups(),
                        cotangent.type.getDimSize(1),
                        weights.getDimSize(inputAxis)};
  auto result = cast<RankedTensorType>(getResult().getType());
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result has shape " << shapeStr(result.getShape())
                         << " but the path groups of " << getAlgebra()
                         << ", cotangent and weights give "
                         << shapeStr(expected);
  return success();
}

/// The pair cotangents of fc_product's path groups: [groups, B, Fin] for a
/// multivector operand `other` of [2^n, B, Fin].
static LogicalResult verifyPairCotangents(Operation *op, AlgebraAttr algebra,
                                          Value pairsValue, NamedTensor other) {
  auto pairs = cast<RankedTensorType>(pairsValue.getType());
  int64_t expected[] = {algebra.getAlgebra().numPathGroups(),
                        other.type.getDimSize(1), other.type.getDimSize(2)};
  if (pairs.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError()
           << "pairs have shape " << shapeStr(pairs.getShape())
           << " but the path groups of " << algebra << " and " << other.name
           << " give " << shapeStr(expected);
  return success();
}

LogicalResult FcProductPairAdjointOp::verify() {
  NamedTensor other = named("other", getOther());
  if (failed(verifyAlgebra(*this, getAlgebra())) ||
      failed(verifyLayerOperand(*this, getAlgebra(), getBladeAxis(), other)) ||
      failed(verifyPairCotangents(*this, getAlgebra(), getPairs(), other)))
    return failure();
  return verifyResultHasShapeOf(*this, getResult(), other);
}

LogicalResult FcProductPairAdjointsOp::verify() {
  // (ODS checked that the operands and results have one type.)
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  if (failed(verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)))
    return failure();
  return verifyPairCotangents(*this, getAlgebra(), getPairs(), lhs);
}

LogicalResult PathAdjointOp::verify() {
  NamedTensor cotangent = named("cotangent", getCotangent());
  NamedTensor lhs = named("lhs", getLhs()), rhs = named("rhs", getRhs());
  if (failed(
          verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs, rhs)) ||
      failed(verifyLayerInputs(*this, getAlgebra(), getBladeAxis(), lhs,
                               cotangent)))
    return failure();
  int64_t chunk = getBatchChunk();
  if (chunk < 1)
    return emitOpError() << "batch_chunk must be at least 1, got " << chunk;
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t batch = lhs.type.getDimSize(1);
  int64_t expected[] = {int64_t(getAlgebra().getAlgebra().numPaths()),
                        (batch + chunk - 1) / chunk, lhs.type.getDimSize(2)};
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result has shape " << shapeStr(result.getShape())
                         << " but the paths of " << getAlgebra()
                         << " and lhs give " << shapeStr(expected);
  return success();
}

LogicalResult ScalarGateAdjointOp::verify() {
  NamedTensor operands[] = {named("cotangent", getCotangent()),
                            named("input", getInput())};
  return verifyBroadcastOp(*this, getAlgebra(), getBladeAxis(), operands,
                           named("result", getResult()),
                           /*scalarResult=*/false);
}

LogicalResult GradeRmsNormAdjointOp::verify() {
  if (failed(verifyAlgebra(*this, getAlgebra())) ||
      failed(verifyLayerOperand(*this, getAlgebra(), getBladeAxis(),
                                named("input", getInput()))))
    return failure();
  APFloat epsilon = getEpsilon();
  if (!epsilon.isFinite() || (epsilon.isNegative() && !epsilon.isZero()))
    return emitOpError() << "epsilon must be finite and non-negative, got "
                         << epsilon.convertToDouble();
  return success();
}

#include "dialects/Clifford/IR/CliffordEnums.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Clifford/IR/CliffordOps.cpp.inc"
