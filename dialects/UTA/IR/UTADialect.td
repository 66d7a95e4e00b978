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
    /// On a launch whose kernel (or a kernel of whose parts) writes other
    /// than one result buffer (a clifford op of two results): the number
    /// of result buffers of each part, in order (a dense i32 array), which
    /// are the last buffers of the part's operands before its thread count.
    /// Absent: one each.
    static ::llvm::StringRef getLaunchResultsAttrName() {
      return "uta.launch_results";
    }
    /// On a launch: the arithmetic its kernel does, a dictionary of i64
    /// operation counts by unit ("simt", and a tensor-core precision:
    /// "bf16", "f16", "tf32", "3xtf32"), a multiply-add counted as two;
    /// what the manifest records as launches[].cost.flops.
    static ::llvm::StringRef getFlopsAttrName() { return "uta.flops"; }
    /// On a matmul-shaped op: its #uta.gemm_plan; on a launch: the plan its
    /// kernel runs (the manifest's launches[].plan).
    static ::llvm::StringRef getGemmPlanAttrName() { return "uta.gemm_plan"; }
    /// On a launch: the operands that may live in the memory of the
    /// result its kernel writes, as pairs (operand, result operand) of
    /// kernel operand numbers in a dense i64 array: its kernel reads them
    /// only where it then writes that result (passes/Analysis/
    /// InPlaceInputs.h); the manifest's launches[].in_place.
    static ::llvm::StringRef getInPlaceAttrName() { return "uta.in_place"; }
  }];
  let hasOperationAttrVerify = 1;
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

def UTA_GemmPlanAttr : UTA_Attr<"GemmPlan", "gemm_plan"> {
  let summary = "how the GEMM engine runs a matmul-shaped op";
  let description = [{
    The plan of a `uta.matmul` or a `clifford.fc_product` on the GEMM
    engine, in the op's discardable attribute `uta.gemm_plan`: written by
    `uta-plan-gemms` (the engine's heuristic, or the row that
    `gemm-config` names), or by hand, and followed by
    `convert-uta-to-gpu`. `schedule` is how a block computes its tile:
    `simt`, `mma_sync`, `wgmma` or `wgmma_tma` (warp-specialised); `tile`
    the block tile M x N x K; `warps` the warps (mma.sync, SIMT: threads)
    or consumer warpgroups (wgmma) along M and N; `stages` the pipeline's
    stages; `b_stages` a ring of B tiles of its own where the kernel keeps
    one (0: B shares A's stages); `precision` how products are formed:
    `f32` (SIMT FMAs), `tf32`, `3xtf32` (f32 accuracy on tensor cores) or
    `half` (f16, bf16). The lowering accepts a plan that is a row of the
    engine's tables (docs/gemm.md) and applies to the op on the target,
    and refuses any other at the op.

    ```mlir
    %c = uta.matmul %a, %b {transpose_b = true,
        uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma",
            tile = [128, 256, 32], warps = [2, 1], stages = 4,
            precision = "tf32">} : ...
    ```
  }];
  let parameters = (ins StringRefParameter<>:$schedule,
                        ArrayRefParameter<"int64_t">:$tile,
                        ArrayRefParameter<"int64_t">:$warps,
                        "int64_t":$stages,
                        StringRefParameter<>:$precision,
                        DefaultValuedParameter<"int64_t", "0">:$bStages);
  let assemblyFormat = [{
    `<` `schedule` `=` $schedule `,` `tile` `=` `[` $tile `]` `,` `warps` `=`
    `[` $warps `]` `,` `stages` `=` $stages `,` `precision` `=` $precision
    (`,` `b_stages` `=` $bStages^)? `>`
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
