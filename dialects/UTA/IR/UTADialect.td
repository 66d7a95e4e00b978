//===- UTADialect.td - The uta tensor-graph dialect --------*- tablegen -*-===//
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
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Defined beside the attribute definitions, which need their storage.
    void registerAttributes();
    /// The array of #uta.tensor_map on a kernel and its launches.
    static ::llvm::StringRef getTensorMapsAttrName() {
      return "uta.tensor_maps";
    }
    /// On a launch of kernels merged into one grid
    /// (uta-merge-independent-launches): the number of operands of each,
    /// in order (a dense i32 array).
    static ::llvm::StringRef getLaunchPartsAttrName() {
      return "uta.launch_parts";
    }
    /// On a launch: the arithmetic its kernel does, a dictionary of i64
    /// operation counts by unit ("simt", and a tensor-core precision:
    /// "bf16", "f16", "tf32", "3xtf32"), a multiply-add counted as two;
    /// what the manifest records as launches[].cost.flops.
    static ::llvm::StringRef getFlopsAttrName() { return "uta.flops"; }
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class UTA_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<UTA_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def UTA_TensorMapAttr : UTA_Attr<"TensorMap", "tensor_map"> {
  let summary = "a kernel argument that is a TMA descriptor of a buffer";
  let description = [{
    Set by `convert-uta-to-gpu`, in the array `uta.tensor_maps`, on a
    kernel (`gpu.func`) and on each of its launches, for the Hopper copies
    that read tiles through the tensor memory accelerator: kernel argument
    `argument` (an `!llvm.ptr`) is the descriptor of the buffer passed as
    argument `source`, encoded by the runtime before the launch and passed
    by value (a 128-byte parameter); one copy moves a box of `box`
    elements (one extent per dimension of the buffer, outermost first), with
    zeros wherever the box passes the buffer's end, and lays its rows out
    in shared memory with the 32-, 64- or 128-byte `swizzle` (0, the
    default: as in memory). The launch passes a null pointer as the
    argument's placeholder.

    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c64, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<8x200x64xf32>,
        ..., %null : !llvm.ptr)
        {uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0,
                                            box = [1, 64, 16]>,
                            #uta.tensor_map<argument = 6, source = 2,
                                            box = [1, 256, 16], swizzle = 64>]}
    ```
  }];
  let parameters = (ins "unsigned":$argument, "unsigned":$source,
                        ArrayRefParameter<"int64_t">:$box,
                        DefaultValuedParameter<"unsigned", "0">:$swizzle);
  let assemblyFormat = [{
    `<` `argument` `=` $argument `,` `source` `=` $source `,` `box` `=` `[`
    $box `]` (`,` `swizzle` `=` $swizzle^)? `>`
  }];
  let genVerifyDecl = 1;
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
