//===- UTAOps.td - Ops of the uta dialect -----------------*- tablegen -*-===//
//
// Every op of SPEC.md §1.1.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_OPS_TD
#define UTA_OPS_TD

include "dialects/UTA/IR/UTADialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class UTA_BinaryOp<string mnemonic, list<Trait> traits = []>
    : UTA_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins UTA_Tensor:$lhs, UTA_Tensor:$rhs);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def UTA_AddOp : UTA_BinaryOp<"add", [Commutative]> {
  let summary = "elementwise addition with NumPy broadcasting";
  let description = [{
    ```mlir
    %c = uta.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let hasFolder = 1;
}

#endif // UTA_OPS_TD
