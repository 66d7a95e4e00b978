//===- VjpOpInterface.td - An op's vector-Jacobian product -*- tablegen -*-===//
//
// The interface through which the gradient transformation (passes/Transforms/
// Differentiate.cpp) asks an op for the gradient of its operands, given the
// cotangent of its result. Each op defines its rule beside its other methods
// (dialects/UTA/IR/UTAVjp.cpp, dialects/Clifford/IR/CliffordVjp.cpp), in ops
// of the two dialects, so that the backward graph goes through the same
// passes as the forward one.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_VJP_OP_INTERFACE_TD
#define UTA_VJP_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def VjpOpInterface : OpInterface<"VjpOpInterface"> {
  let cppNamespace = "::mlir::uta";
  let description = [{
    An op that the gradient transformation can differentiate: given the
    cotangent of its (single) result, it builds the cotangent of each operand
    that is asked for, in ops of the uta and clifford dialects, at the
    builder's insertion point. A cotangent has its operand's type. Where the
    op is not differentiable at a point (relu at 0, ties of max), the rule
    follows PyTorch's convention; docs/autodiff.md lists them.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends to `operandCotangents` one value per operand: the cotangent
        of operand i when `wanted[i]` is set, a null value otherwise.
        Fails, with an error at the op, when the op cannot be
        differentiated with respect to a wanted operand.
      }], "::mlir::LogicalResult", "buildVjp",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Value":$cotangent,
           "::llvm::ArrayRef<bool>":$wanted,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>,
  ];
}

#endif // UTA_VJP_OP_INTERFACE_TD
