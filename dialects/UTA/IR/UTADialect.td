//===- UTADialect.td - The uta tensor-graph dialect -------*- tablegen -*-===//
//
// The dialect definition and the type constraints shared by all uta ops.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECT_TD
#define UTA_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def UTA_Dialect : Dialect {
  let name = "uta";
  let cppNamespace = "::mlir::uta";
  let summary = "Tensor graphs: elementwise math, matmul, reductions and norms";
  let description = [{
    The `uta` dialect describes a graph of tensor operations over ranked,
    statically shaped tensors. Elementwise binary ops broadcast NumPy-style.
    Composite ops (softmax, layer_norm, silu, gelu) stay whole: each has a
    kernel of its own rather than a decomposition into simpler ops.
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class UTA_Op<string mnemonic, list<Trait> traits = []>
    : Op<UTA_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// Element types of elementwise ops, matmul and data movement.
def UTA_AnyFloat : AnyTypeOf<[F32, F16, BF16]>;

/// A statically shaped (hence ranked) tensor of f32, f16 or bf16.
def UTA_Tensor : RankedTensorOf<[F32, F16, BF16], [HasStaticShapePred],
                                "statically shaped tensor">;

/// The operand and result type of reductions, softmax and layer_norm. The
/// predicate also admits f16 and bf16 so that the op verifier, not the generic
/// type check, rejects them with a message that says why (f16 and bf16 are
/// supported only by matmul and the elementwise ops).
def UTA_F32Tensor : Type<UTA_Tensor.predicate, "statically shaped f32 tensor",
                         "::mlir::RankedTensorType">;

#endif // UTA_DIALECT_TD
