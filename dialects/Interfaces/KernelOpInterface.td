//===- KernelOpInterface.td - What kernels know of an op ---*- tablegen -*-===//
//
// The interface and traits through which the passes ask an op of either
// dialect how kernels treat it, instead of keeping lists of ops: its fusion
// class (what the fusion cost model may do with it) and, for pointwise ops,
// what recomputing an element costs; whether it is elementwise, and how
// zeros pass through it (the grade analysis).
//
// An op declares these with one of the KernelOp classes below in its trait
// list, e.g. `UTA_Op<"add", [Pure, PointwiseKernelOp<1>, ...]>`.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_KERNEL_OP_INTERFACE_TD
#define UTA_KERNEL_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def KernelOpInterface : OpInterface<"KernelOpInterface"> {
  let cppNamespace = "::mlir::uta";
  let description = [{
    An op that a GPU kernel computes. Its fusion class tells the fusion cost
    model whether the op can be recomputed inside a consumer's kernel and
    how (see FusionClass in KernelOpInterface.h); every computing op of the
    uta and clifford dialects has one, given by a KernelOp trait.
  }];
  let methods = [
    InterfaceMethod<[{
        How a kernel can compute this op, which decides what fuses with it.
      }], "::mlir::uta::FusionClass", "getFusionClass">,
    InterfaceMethod<[{
        For pointwise ops: the f32 operations that computing one element of
        the result costs, roughly (a transcendental function counts as
        several). The cost model weighs recomputing the op against storing
        and reloading its result with it. 0 for other fusion classes.
      }], "unsigned", "estimateFlopsPerElement">,
  ];
  // Element counts and byte sizes of every tensor the op touches fit int64,
  // so that no later pass or the runtime has to fear an overflow.
  let verify = [{ return ::mlir::uta::verifyTensorSizes($_op); }];
}

/// The trait behind KernelOp: a fusion class and a flop estimate, both
/// static.
class HasFusionClass<string fusionClass, int flops>
    : ParamNativeOpTrait<"HasFusionClass",
                         "::mlir::uta::FusionClass::" # fusionClass # ", " #
                         flops> {
  let cppNamespace = "::mlir::uta::OpTrait";
}

class KernelOp<string fusionClass, int flops = 0>
    : TraitList<[HasFusionClass<fusionClass, flops>, KernelOpInterface]>;

/// Element i of the result costs `flops` operations on the operands'
/// elements (elementwise ops, casts) or reads one element of the operand
/// (layout ops: transpose, reshape, broadcast_to, flops 0).
class PointwiseKernelOp<int flops> : KernelOp<"Pointwise", flops>;
/// An element of the result is a loop over the operands (matmul,
/// reductions).
def AnchorKernelOp : KernelOp<"Anchor">;
/// A clifford op whose kernel computes every blade of a position of its
/// result from its operands at that position (MultivectorOpInterface gives
/// the cost).
def BladewiseKernelOp : KernelOp<"Bladewise">;
/// Always a kernel of its own (softmax, layer_norm, the layer ops).
def OpaqueKernelOp : KernelOp<"Opaque">;

/// Element i of the result is a function of element i of each operand,
/// operands broadcast NumPy-style: the elementwise binary and unary ops and
/// casts.
def UTA_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::mlir::uta::OpTrait";
}

/// The result is zero wherever every operand is zero (f(0, ..., 0) = 0 for
/// finite inputs): add, neg, tanh, casts, broadcast_to... The grade
/// analysis unites the operands' non-zero blades through it.
def UTA_ZeroPreserving : NativeOpTrait<"ZeroPreserving"> {
  let cppNamespace = "::mlir::uta::OpTrait";
}

/// The result is zero wherever any operand is zero, for finite inputs
/// (mul). The grade analysis intersects the operands' non-zero blades.
def UTA_ZeroAbsorbing : NativeOpTrait<"ZeroAbsorbing"> {
  let cppNamespace = "::mlir::uta::OpTrait";
}

#endif // UTA_KERNEL_OP_INTERFACE_TD
