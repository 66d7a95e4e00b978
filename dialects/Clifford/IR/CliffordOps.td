//===- CliffordOps.td - Ops of the clifford dialect -------*- tablegen -*-===//
//
// Every op of SPEC.md §1.2.
//
//===----------------------------------------------------------------------===//

#ifndef CLIFFORD_OPS_TD
#define CLIFFORD_OPS_TD

include "dialects/Clifford/IR/CliffordDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Clifford_GeometricProductOp : Clifford_Op<"geometric_product", [Pure]> {
  let summary = "geometric product z = x y";
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // CLIFFORD_OPS_TD
