//===- CliffordInterfaces.td - Interfaces of clifford ops --*- tablegen -*-===//
//
// MultivectorOpInterface: what every clifford op tells the passes about its
// multivectors, so that the grade analysis, the fusion cost model and the
// lowering ask the op instead of keeping lists of ops.
//
//===----------------------------------------------------------------------===//

#ifndef CLIFFORD_INTERFACES_TD
#define CLIFFORD_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Clifford_MultivectorOpInterface : OpInterface<"MultivectorOpInterface"> {
  let cppNamespace = "::mlir::uta::clifford";
  let description = [{
    An op over multivector tensors of one algebra, with the blades along one
    axis (the blade axis) of its multivector operands and, but for
    path_adjoint (whose result holds paths) and pair_gate_factor (whose
    result has no blade axis), of its result; those two tell nothing of
    their result's blades (inferResultBlades gives std::nullopt).
  }];
  let methods = [
    InterfaceMethod<"The algebra of the op's multivectors.",
      "::mlir::uta::clifford::AlgebraAttr", "getAlgebra", (ins),
      [{ return $_op.getAlgebra(); }]>,
    InterfaceMethod<[{
        The blade axis of the multivector operands and of the result.
      }], "int64_t", "getMultivectorAxis", (ins), [{
        return static_cast<int64_t>($_op.getBladeAxis());
      }]>,
    InterfaceMethod<[{
        The operands that are multivectors along the blade axis, in operand
        order (not the layer ops' weights).
      }], "::llvm::SmallVector<::mlir::Value, 2>", "getMultivectorOperands",
      (ins), [{}], [{
        return ::llvm::SmallVector<::mlir::Value, 2>($_op->getOperands());
      }]>,
    InterfaceMethod<[{
        The blades of the two operands of a product that may be non-zero
        (of the cotangent and the other operand of a product's adjoint), as
        recorded on the op by clifford-simplify-grades (every blade where
        nothing is recorded, and for ops that are neither).
      }], "std::pair<uint64_t, uint64_t>", "getOperandBladeSets", (ins), [{}],
      [{ return {~uint64_t(0), ~uint64_t(0)}; }]>,
    InterfaceMethod<[{
        The blades of the result along the blade axis that may be non-zero,
        given those of each of getMultivectorOperands() (bit masks, bit i =
        blade i), for finite inputs; std::nullopt when nothing follows from
        them. The grade analysis's rule for the op.
      }], "std::optional<uint64_t>", "inferResultBlades",
      (ins "::llvm::ArrayRef<uint64_t>":$operandBlades)>,
    InterfaceMethod<[{
        The f32 operations that computing every blade of one position of the
        result costs, roughly (the products count the Cayley terms their
        kernels keep): what the fusion cost model weighs recomputation with.
      }], "double", "estimateFlopsPerPosition">,
  ];
}

#endif // CLIFFORD_INTERFACES_TD
