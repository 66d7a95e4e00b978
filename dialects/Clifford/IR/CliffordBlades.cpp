//===- CliffordBlades.cpp - Each clifford op's MultivectorOpInterface -----===//
//
// For every clifford op: how the non-zero blades of its operands determine
// those of its result (the grade analysis's rule for it), which blade sets
// it records, and what computing one position of it costs.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/BladeSets.h"
#include "dialects/Clifford/IR/CliffordOps.h"

#include <bit>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using ::uta::ga::Algebra;

namespace {

/// An op's operand blade set: every blade where it records none.
uint64_t maskOf(BladeSetAttr set) {
  return set ? set.getBlades() : ~uint64_t(0);
}

/// The rule of a product keeping `terms`: operands narrowed by the sets the
/// op records.
template <typename ProductOp>
uint64_t inferProductBlades(ProductOp op, ProductTerms terms,
                            ArrayRef<uint64_t> operandBlades) {
  auto [lhs, rhs] = op.getOperandBladeSets();
  return getProductBlades(op.getAlgebra().getAlgebra(), terms,
                          operandBlades[0] & lhs, operandBlades[1] & rhs);
}

/// The Cayley terms a product keeping `terms` computes: a multiply and an
/// add each.
template <typename ProductOp>
double estimateProductFlops(ProductOp op, ProductTerms terms) {
  auto [lhs, rhs] = op.getOperandBladeSets();
  return 2.0 *
         getNumProductTerms(op.getAlgebra().getAlgebra(), terms, lhs, rhs);
}

/// The ops that scale each blade by a sign: their result has the blades of
/// their input, each computed with one operation.
double estimateSignFlops(AlgebraAttr algebra) {
  return algebra.getAlgebra().numBlades();
}

/// One erf, in the operations of f32 arithmetic it costs, roughly.
constexpr double kErfFlops = 20;

} // namespace

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

#define UTA_PRODUCT_BLADE_SETS(Op)                                             \
  std::pair<uint64_t, uint64_t> Op::getOperandBladeSets() {                    \
    return {maskOf(getLhsBladesAttr()), maskOf(getRhsBladesAttr())};           \
  }
UTA_PRODUCT_BLADE_SETS(GeometricProductOp)
UTA_PRODUCT_BLADE_SETS(OuterProductOp)
UTA_PRODUCT_BLADE_SETS(LeftContractionOp)
UTA_PRODUCT_BLADE_SETS(ScalarProductOp)
UTA_PRODUCT_BLADE_SETS(WeightedProductOp)
UTA_PRODUCT_BLADE_SETS(FcProductOp)
#undef UTA_PRODUCT_BLADE_SETS

std::optional<uint64_t>
GeometricProductOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::Geometric, operandBlades);
}
double GeometricProductOp::estimateFlopsPerPosition() {
  return estimateProductFlops(*this, ProductTerms::Geometric);
}

std::optional<uint64_t>
OuterProductOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::Outer, operandBlades);
}
double OuterProductOp::estimateFlopsPerPosition() {
  return estimateProductFlops(*this, ProductTerms::Outer);
}

std::optional<uint64_t>
LeftContractionOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::LeftContraction,
                            operandBlades);
}
double LeftContractionOp::estimateFlopsPerPosition() {
  return estimateProductFlops(*this, ProductTerms::LeftContraction);
}

std::optional<uint64_t>
ScalarProductOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::Scalar, operandBlades);
}
double ScalarProductOp::estimateFlopsPerPosition() {
  return estimateProductFlops(*this, ProductTerms::Scalar);
}

std::pair<uint64_t, uint64_t> SandwichOp::getOperandBladeSets() {
  return {maskOf(getRotorBladesAttr()), maskOf(getInputBladesAttr())};
}

std::optional<uint64_t>
SandwichOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // r x reverse(r), where reverse(r) has the blades of r.
  const Algebra &algebra = getAlgebra().getAlgebra();
  auto [rotorSet, inputSet] = getOperandBladeSets();
  uint64_t rotor = operandBlades[0] & rotorSet;
  uint64_t rx = getProductBlades(algebra, ProductTerms::Geometric, rotor,
                                 operandBlades[1] & inputSet);
  return getProductBlades(algebra, ProductTerms::Geometric, rx, rotor);
}

double SandwichOp::estimateFlopsPerPosition() {
  // r x, then (r x) reverse(r).
  const Algebra &algebra = getAlgebra().getAlgebra();
  auto [rotor, input] = getOperandBladeSets();
  uint64_t rx =
      getProductBlades(algebra, ProductTerms::Geometric, rotor, input);
  return 2.0 *
         (getNumProductTerms(algebra, ProductTerms::Geometric, rotor, input) +
          getNumProductTerms(algebra, ProductTerms::Geometric, rx, rotor));
}

//===----------------------------------------------------------------------===//
// Involutions, projection, dual, gate
//===----------------------------------------------------------------------===//

std::optional<uint64_t>
ReverseOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return operandBlades[0];
}
double ReverseOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra());
}

std::optional<uint64_t>
GradeInvolutionOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return operandBlades[0];
}
double GradeInvolutionOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra());
}

std::optional<uint64_t>
ConjugateOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return operandBlades[0];
}
double ConjugateOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra());
}

std::optional<uint64_t>
GradeProjectOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return operandBlades[0] &
         getGradeBlades(getAlgebra().getAlgebra(), getGrades());
}
double GradeProjectOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra());
}

std::optional<uint64_t>
DualOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // Blade b maps to the blade of b I^-1.
  const Algebra &algebra = getAlgebra().getAlgebra();
  uint64_t blades = 0;
  for (uint64_t rest = operandBlades[0]; rest; rest &= rest - 1) {
    std::optional<::uta::ga::BladeProduct> image =
        algebra.dualOf(std::countr_zero(rest));
    // The verifier rejects dual in degenerate algebras.
    if (!image)
      return std::nullopt;
    blades |= uint64_t(1) << image->blade;
  }
  return blades;
}
double DualOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra());
}

std::optional<uint64_t>
ScalarGateOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return operandBlades[0];
}
double ScalarGateOp::estimateFlopsPerPosition() {
  return estimateSignFlops(getAlgebra()) + kErfFlops;
}

std::optional<uint64_t>
PairGateOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // lhs's blades, scaled.
  return operandBlades[0];
}
double PairGateOp::estimateFlopsPerPosition() {
  // Two erfs, their product, a scale per blade.
  return estimateSignFlops(getAlgebra()) + 2 * kErfFlops + 1;
}

std::optional<uint64_t>
PairGateFactorOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // The result has no blade axis.
  return std::nullopt;
}
double PairGateFactorOp::estimateFlopsPerPosition() {
  // Two erfs and their product.
  return 2 * kErfFlops + 1;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

SmallVector<Value, 2> WeightedProductOp::getMultivectorOperands() {
  return {getLhs(), getRhs()};
}
std::optional<uint64_t>
WeightedProductOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::Geometric, operandBlades);
}
double WeightedProductOp::estimateFlopsPerPosition() {
  // And a weight per term.
  return 1.5 * estimateProductFlops(*this, ProductTerms::Geometric);
}

SmallVector<Value, 2> FcProductOp::getMultivectorOperands() {
  return {getLhs(), getRhs()};
}
std::optional<uint64_t>
FcProductOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return inferProductBlades(*this, ProductTerms::Geometric, operandBlades);
}
double FcProductOp::estimateFlopsPerPosition() {
  // Every term for each input feature.
  int64_t inputFeatures = getLhs().getType().getDimSize(2);
  return estimateProductFlops(*this, ProductTerms::Geometric) * inputFeatures;
}

std::optional<uint64_t>
GradeRmsNormOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // With epsilon = 0 a grade that is zero everywhere divides 0 by 0.
  if (getEpsilon().isZero())
    return std::nullopt;
  return operandBlades[0];
}
double GradeRmsNormOp::estimateFlopsPerPosition() {
  // A square and an add per blade for the norms, a multiply to scale.
  return 3.0 * getAlgebra().getAlgebra().numBlades();
}

//===----------------------------------------------------------------------===//
// Adjoints
//===----------------------------------------------------------------------===//

/// The Cayley terms of the product an adjoint op differentiates.
static ProductTerms getProductTerms(ProductKind kind) {
  switch (kind) {
  case ProductKind::geometric:
    return ProductTerms::Geometric;
  case ProductKind::outer:
    return ProductTerms::Outer;
  case ProductKind::left_contraction:
    return ProductTerms::LeftContraction;
  case ProductKind::scalar:
    return ProductTerms::Scalar;
  }
  llvm_unreachable("unknown product kind");
}

ProductTerms ProductAdjointOp::getProductTerms() {
  return ::getProductTerms(getProduct());
}

std::pair<uint64_t, uint64_t> ProductAdjointOp::getOperandBladeSets() {
  return {maskOf(getCotangentBladesAttr()), maskOf(getOtherBladesAttr())};
}

std::optional<uint64_t>
ProductAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // A term contributes where both of its factors here may be non-zero;
  // nothing narrower is known about the scalar product's one-blade
  // cotangent than that it is blade 0, and what the op records.
  auto [cotangentSet, otherSet] = getOperandBladeSets();
  uint64_t cotangent =
      getProduct() == ProductKind::scalar ? uint64_t(1) : operandBlades[0];
  return getAdjointBlades(getAlgebra().getAlgebra(), getProductTerms(),
                          getOperand() == ProductOperand::lhs,
                          cotangent & cotangentSet,
                          operandBlades[1] & otherSet);
}
double ProductAdjointOp::estimateFlopsPerPosition() {
  auto [cotangent, other] = getOperandBladeSets();
  return 2.0 * getNumAdjointTerms(getAlgebra().getAlgebra(), getProductTerms(),
                                  getOperand() == ProductOperand::lhs,
                                  cotangent, other);
}

std::pair<uint64_t, uint64_t> WeightedProductAdjointOp::getOperandBladeSets() {
  return {maskOf(getCotangentBladesAttr()), maskOf(getOtherBladesAttr())};
}
SmallVector<Value, 2> WeightedProductAdjointOp::getMultivectorOperands() {
  return {getCotangent(), getOther()};
}
std::optional<uint64_t>
WeightedProductAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  auto [cotangentSet, otherSet] = getOperandBladeSets();
  return getAdjointBlades(getAlgebra().getAlgebra(), ProductTerms::Geometric,
                          getOperand() == ProductOperand::lhs,
                          operandBlades[0] & cotangentSet,
                          operandBlades[1] & otherSet);
}
double WeightedProductAdjointOp::estimateFlopsPerPosition() {
  // A multiply and an add per term, and a weight per term.
  auto [cotangent, other] = getOperandBladeSets();
  return 3.0 * getNumAdjointTerms(
                   getAlgebra().getAlgebra(), ProductTerms::Geometric,
                   getOperand() == ProductOperand::lhs, cotangent, other);
}

SmallVector<Value, 2> FcProductAdjointOp::getMultivectorOperands() {
  return {getCotangent(), getOther()};
}
std::optional<uint64_t>
FcProductAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  return getAdjointBlades(getAlgebra().getAlgebra(), ProductTerms::Geometric,
                          getOperand() == ProductOperand::lhs, operandBlades[0],
                          operandBlades[1]);
}
double FcProductAdjointOp::estimateFlopsPerPosition() {
  // Per term, a dot product over the output features and a scale.
  int64_t outputFeatures = getCotangent().getType().getDimSize(2);
  return 2.0 * outputFeatures *
         getNumAdjointTerms(getAlgebra().getAlgebra(), ProductTerms::Geometric,
                            getOperand() == ProductOperand::lhs, ~uint64_t(0),
                            ~uint64_t(0));
}

SmallVector<Value, 2> FcProductWeightGradientOp::getMultivectorOperands() {
  return {getCotangent(), getLhs(), getRhs()};
}
std::optional<uint64_t>
FcProductWeightGradientOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // The result holds paths and features, not blades.
  return std::nullopt;
}
double FcProductWeightGradientOp::estimateFlopsPerPosition() {
  // Per term, a pair product and its product with every output feature
  // (the cotangent [2^n, B, Fout], or [2^n, Fout, B] batch-contiguous).
  int64_t outputFeatures =
      getCotangent().getType().getDimSize(getTransposeCotangent() ? 1 : 2);
  return 2.0 * (outputFeatures + 1) *
         getNumProductTerms(getAlgebra().getAlgebra(), ProductTerms::Geometric,
                            ~uint64_t(0), ~uint64_t(0));
}

SmallVector<Value, 2> FcProductPairCotangentsOp::getMultivectorOperands() {
  return {getCotangent()};
}
std::optional<uint64_t>
FcProductPairCotangentsOp::inferResultBlades(ArrayRef<uint64_t>) {
  // The result holds path groups, not blades.
  return std::nullopt;
}
double FcProductPairCotangentsOp::estimateFlopsPerPosition() {
  // Per group, a dot product over the output features.
  int64_t outputFeatures = getCotangent().getType().getDimSize(2);
  return 2.0 * outputFeatures * getAlgebra().getAlgebra().numPathGroups();
}

SmallVector<Value, 2> FcProductPairAdjointOp::getMultivectorOperands() {
  return {getOther()};
}
std::optional<uint64_t>
FcProductPairAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // Every blade a term of the other operand's blades reaches.
  const ::uta::ga::Algebra &algebra = getAlgebra().getAlgebra();
  bool ofLhs = getOperand() == ProductOperand::lhs;
  uint64_t blades = 0;
  for (unsigned i = 0; i < algebra.numBlades(); ++i)
    for (unsigned j = 0; j < algebra.numBlades(); ++j) {
      unsigned from = ofLhs ? j : i, to = ofLhs ? i : j;
      if (algebra.product(i, j).sign != 0 && (operandBlades[0] >> from & 1))
        blades |= uint64_t(1) << to;
    }
  return blades;
}
double FcProductPairAdjointOp::estimateFlopsPerPosition() {
  // Per term, two multiplies and an add.
  return 3.0 * getNumProductTerms(getAlgebra().getAlgebra(),
                                  ProductTerms::Geometric, ~uint64_t(0),
                                  ~uint64_t(0));
}

SmallVector<Value, 2> FcProductPairAdjointsOp::getMultivectorOperands() {
  return {getLhs(), getRhs()};
}
std::optional<uint64_t>
FcProductPairAdjointsOp::inferResultBlades(ArrayRef<uint64_t>) {
  // Two results, each with blades of its own (those of the single-result
  // form): nothing said of both at once.
  return std::nullopt;
}
double FcProductPairAdjointsOp::estimateFlopsPerPosition() {
  // Per term, two multiplies and an add for each result.
  return 6.0 * getNumProductTerms(getAlgebra().getAlgebra(),
                                  ProductTerms::Geometric, ~uint64_t(0),
                                  ~uint64_t(0));
}

SmallVector<Value, 2> PathAdjointOp::getMultivectorOperands() {
  return {getCotangent(), getLhs(), getRhs()};
}
std::optional<uint64_t>
PathAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // The result's axis 0 holds paths, not blades.
  return std::nullopt;
}
double PathAdjointOp::estimateFlopsPerPosition() {
  return 3.0 * getNumProductTerms(getAlgebra().getAlgebra(),
                                  ProductTerms::Geometric, ~uint64_t(0),
                                  ~uint64_t(0));
}

std::optional<uint64_t>
ScalarGateAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  // The cotangent's blades, and the scalar, which also gets phi(s) <g, x>.
  return operandBlades[0] | uint64_t(1);
}
double ScalarGateAdjointOp::estimateFlopsPerPosition() {
  // A dot product over the blades, a scale per blade, an erf and an exp.
  return 3.0 * estimateSignFlops(getAlgebra()) + 2 * kErfFlops;
}

std::optional<uint64_t>
GradeRmsNormAdjointOp::inferResultBlades(ArrayRef<uint64_t> operandBlades) {
  if (getEpsilon().isZero())
    return std::nullopt;
  return operandBlades[0] | operandBlades[1];
}
double GradeRmsNormAdjointOp::estimateFlopsPerPosition() {
  // Two sums of products for the reductions, then a few operations to
  // combine per blade.
  return 8.0 * getAlgebra().getAlgebra().numBlades();
}
