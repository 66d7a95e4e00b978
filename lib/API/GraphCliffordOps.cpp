//===- GraphCliffordOps.cpp - Graph's builders of clifford ops ------------===//
//
// The Graph methods that add a clifford dialect op: the products, the
// involutions, grade projection, the scalar gate, the weighted and
// fully-connected layers and the grade RMS norm. Each builds its op through
// the generic builder with the algebra as an attribute
// (Graph::Impl::createClifford) and leaves the shape and type rules to the
// op's verifier.
//
//===----------------------------------------------------------------------===//

#include "uta/Algebra.h"
#include "uta/Graph.h"

#include "lib/API/GraphImpl.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
namespace clifford = mlir::uta::clifford;

// Definitions sit inside namespace uta (as in Graph.cpp): with `using
// namespace mlir`, a qualified uta:: would be ambiguous with mlir::uta.
namespace uta {

template <typename OpTy>
Tensor
Graph::Impl::createClifford(const Algebra &algebra, ArrayRef<Operand> operands,
                            function_ref<Type(ArrayRef<Value>)> resultType,
                            ArrayRef<NamedAttribute> attributes) {
  StringRef what = OpTy::getOperationName().split('.').second;
  if (!checkOperands(what, operands))
    return {};
  clifford::AlgebraAttr attr = algebraAttr(what, algebra);
  if (!attr)
    return {};
  SmallVector<Value> inputs;
  for (const Operand &operand : operands)
    inputs.push_back(value(operand.tensor));
  SmallVector<NamedAttribute> all(attributes);
  all.push_back(NamedAttribute(StringAttr::get(&context, "algebra"), attr));
  return create<OpTy>(operands, TypeRange(resultType(inputs)),
                      ValueRange(inputs), ArrayRef<NamedAttribute>(all));
}

/// The result type the broadcasting clifford ops should have: the blade
/// axis keeps the first operand's size (1 for scalar_product), every other
/// axis takes the operands' common size. Where the operands disagree the
/// first operand's type stands in, and the verifier says what is wrong.
static Type cliffordBroadcastType(ArrayRef<Value> operands, int64_t bladeAxis,
                                  bool scalarResult) {
  auto first = llvm::cast<RankedTensorType>(operands.front().getType());
  int64_t rank = first.getRank();
  for (Value operand : operands)
    if (llvm::cast<RankedTensorType>(operand.getType()).getRank() != rank)
      return first;
  if (bladeAxis < 0 || bladeAxis >= rank)
    return first;
  SmallVector<int64_t> shape(first.getShape());
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == bladeAxis) {
      if (scalarResult)
        shape[axis] = 1;
      continue;
    }
    for (Value operand : operands) {
      int64_t size =
          llvm::cast<RankedTensorType>(operand.getType()).getDimSize(axis);
      if (size != 1)
        shape[axis] = size;
    }
  }
  return first.clone(shape);
}

/// The unary clifford ops return their input's type.
static Type firstOperandType(ArrayRef<Value> operands) {
  return operands.front().getType();
}

/// A named attribute of a clifford op.
static NamedAttribute named(MLIRContext *context, StringRef name,
                            Attribute value) {
  return NamedAttribute(StringAttr::get(context, name), value);
}

static NamedAttribute bladeAxisAttr(MLIRContext *context, int64_t bladeAxis) {
  return named(context, "blade_axis",
               IntegerAttr::get(IntegerType::get(context, 64), bladeAxis));
}

#define UTA_GRAPH_CLIFFORD_BINARY(method, OpTy, first, second, scalar)         \
  Tensor Graph::method(const Algebra &algebra, const Tensor &lhs,              \
                       const Tensor &rhs, int64_t bladeAxis) {                 \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl::Operand operands[] = {{first, lhs}, {second, rhs}};                  \
    return impl_->createClifford<OpTy>(                                        \
        algebra, operands,                                                     \
        [&](ArrayRef<Value> values) {                                          \
          return cliffordBroadcastType(values, bladeAxis, scalar);             \
        },                                                                     \
        bladeAxisAttr(&impl_->context, bladeAxis));                            \
  }

UTA_GRAPH_CLIFFORD_BINARY(geometricProduct, clifford::GeometricProductOp, "lhs",
                          "rhs", false)
UTA_GRAPH_CLIFFORD_BINARY(outerProduct, clifford::OuterProductOp, "lhs", "rhs",
                          false)
UTA_GRAPH_CLIFFORD_BINARY(leftContraction, clifford::LeftContractionOp, "lhs",
                          "rhs", false)
UTA_GRAPH_CLIFFORD_BINARY(scalarProduct, clifford::ScalarProductOp, "lhs",
                          "rhs", true)
UTA_GRAPH_CLIFFORD_BINARY(sandwich, clifford::SandwichOp, "rotor", "input",
                          false)
#undef UTA_GRAPH_CLIFFORD_BINARY

#define UTA_GRAPH_CLIFFORD_UNARY(method, OpTy)                                 \
  Tensor Graph::method(const Algebra &algebra, const Tensor &x,                \
                       int64_t bladeAxis) {                                    \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl::Operand operands[] = {{"input", x}};                                 \
    return impl_->createClifford<OpTy>(                                        \
        algebra, operands, firstOperandType,                                   \
        bladeAxisAttr(&impl_->context, bladeAxis));                            \
  }

UTA_GRAPH_CLIFFORD_UNARY(reverse, clifford::ReverseOp)
UTA_GRAPH_CLIFFORD_UNARY(gradeInvolution, clifford::GradeInvolutionOp)
UTA_GRAPH_CLIFFORD_UNARY(conjugate, clifford::ConjugateOp)
UTA_GRAPH_CLIFFORD_UNARY(dual, clifford::DualOp)
UTA_GRAPH_CLIFFORD_UNARY(scalarGate, clifford::ScalarGateOp)
#undef UTA_GRAPH_CLIFFORD_UNARY

Tensor Graph::gradeProject(const Algebra &algebra, const Tensor &x,
                           std::vector<int64_t> grades, int64_t bladeAxis) {
  UTA_GRAPH_REQUIRE_IMPL()
  MLIRContext *context = &impl_->context;
  Impl::Operand operands[] = {{"input", x}};
  NamedAttribute attributes[] = {
      named(context, "grades", DenseI64ArrayAttr::get(context, grades)),
      bladeAxisAttr(context, bladeAxis)};
  return impl_->createClifford<clifford::GradeProjectOp>(
      algebra, operands, firstOperandType, attributes);
}

Tensor Graph::weightedProduct(const Algebra &algebra, const Tensor &lhs,
                              const Tensor &rhs, const Tensor &weights) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}, {"weights", weights}};
  // [2^n, B, F] x [2^n, B, F] with [F, P] gives [2^n, B, F].
  return impl_->createClifford<clifford::WeightedProductOp>(
      algebra, operands, firstOperandType, {});
}

Tensor Graph::fcProduct(const Algebra &algebra, const Tensor &lhs,
                        const Tensor &rhs, const Tensor &weights) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}, {"weights", weights}};
  // [2^n, B, Fin] x [2^n, B, Fin] with [P, Fin, Fout] gives [2^n, B, Fout].
  auto resultType = [](ArrayRef<Value> values) -> Type {
    auto x = llvm::cast<RankedTensorType>(values[0].getType());
    auto w = llvm::cast<RankedTensorType>(values[2].getType());
    if (x.getRank() != 3 || w.getRank() != 3)
      return x;
    return x.clone({x.getDimSize(0), x.getDimSize(1), w.getDimSize(2)});
  };
  return impl_->createClifford<clifford::FcProductOp>(algebra, operands,
                                                      resultType, {});
}

Tensor Graph::gradeRmsNorm(const Algebra &algebra, const Tensor &x,
                           float epsilon) {
  UTA_GRAPH_REQUIRE_IMPL()
  MLIRContext *context = &impl_->context;
  Impl::Operand operands[] = {{"input", x}};
  NamedAttribute attributes[] = {named(
      context, "epsilon", FloatAttr::get(Float32Type::get(context), epsilon))};
  return impl_->createClifford<clifford::GradeRmsNormOp>(
      algebra, operands, firstOperandType, attributes);
}

} // namespace uta
