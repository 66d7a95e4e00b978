//===- Passes.td - UTA conversion passes -------------------*- tablegen -*-===//
//
// Conversions between dialects, named Src-to-Dst (keep alphabetical).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_CONVERSION_PASSES_TD
#define UTA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// UTAToGPU
//===----------------------------------------------------------------------===//

def ConvertUTAToGPUPass : Pass<"convert-uta-to-gpu", "ModuleOp"> {
  let summary = "Outline uta and clifford ops into GPU kernels and a host "
                "launch sequence";
  let description = [{
    Turns every public `func.func` over tensors into a host function over
    statically shaped memrefs and one `gpu.func` kernel per op, collected in
    the `gpu.module @kernels`:

    - each tensor value gets a buffer: a function argument, a constant
      (`memref.global`), or an intermediate or result (`memref.alloc`);
    - each op becomes one kernel whose threads each compute one point of the
      op's iteration space (an output element; for clifford ops a whole
      multivector) and a `gpu.launch_func` of it;
    - kernels take their buffers and the thread count `n` (an i32) as
      explicit arguments, so no target has to lower `memref.dim`;
    - with `vectorize` (the default), a thread of a kernel that allows it
      computes 4 consecutive points along the innermost axis and accesses
      its buffers with aligned `vector<4xT>` loads and stores (128 bits for
      f32), the last thread taking any remainder one point at a time;
    - kernels whose threads cooperate through workgroup memory run whole
      blocks without a range guard, so every barrier is reached by the
      whole block;
    - a kernel the same as one outlined before but for its name
      (passes/Analysis/IdenticalKernels.h: a repeated layer) is dropped, and
      its launch runs the first one, on its own buffers; with `remarks`,
      each is reported.

    Composite ops keep their own kernels; fusion happens before this pass.
  }];
  let options = [
    Option<"blockSize", "block-size", "unsigned", /*default=*/"256",
           "Threads per block of every kernel">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Let each thread of the kernels that allow it handle 4 "
           "consecutive elements with vector loads and stores">,
    Option<"sm", "sm", "unsigned", /*default=*/"0",
           "CUDA compute capability of the target (80, 86, 89, 90); 0 for "
           "targets without CUDA tensor cores (SPIR-V, MSL). Matmuls use "
           "mma.sync tensor cores from 80 on, the tiled SIMT GEMM below">,
    Option<"archSpecific", "arch-specific", "bool", /*default=*/"false",
           "The CUDA target has the architecture-specific features of "
           "sm_90a (utac --sm=90a): matmuls with K-contiguous operands use "
           "wgmma">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Let matmuls use tensor cores where the target has them; false: "
           "the tiled SIMT GEMM everywhere">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "f32 matmuls on tensor cores in plain TF32 (10-bit mantissas, "
           "about 1e-3 relative error) instead of 3xTF32 (f32 accuracy, "
           "three tensor-core products)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report the GEMM engine's plan of each matmul, and each kernel "
           "dropped as the same as one before, as a remark">,
    Option<"gemmConfig", "gemm-config", "std::string", /*default=*/"\"\"",
           "Name of a row of the GEMM engine's configuration table that "
           "replaces the heuristic's choice wherever it applies (its "
           "schedule, element size and precision match the matmul's); for "
           "benchmarks and tuning">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect", "::mlir::LLVM::LLVMDialect",
    // #uta.tensor_map on kernels that copy through TMA.
    "::mlir::uta::UTADialect",
  ];
}

//===----------------------------------------------------------------------===//
// PlanGemms
//===----------------------------------------------------------------------===//

def PlanGemmsPass : Pass<"uta-plan-gemms", "::mlir::ModuleOp"> {
  let summary = "Attach the GEMM engine's plan to every op that runs on it";
  let description = [{
    Gives each `uta.matmul` and `clifford.fc_product` of the module's public
    functions that runs on the GEMM engine its plan as a
    `#uta.gemm_plan` in the discardable attribute `uta.gemm_plan`: the
    engine's heuristic choice for the target, or the row `gemm-config`
    names where it applies. A plan an op already has stays:
    `convert-uta-to-gpu` follows the attribute, and refuses one it cannot
    follow at the op. An fc_product that runs on the SIMT cores here
    (operands not f32, no CUDA tensor cores) gets none.

    ```mlir
    %c = uta.matmul %a, %b {transpose_b = true} : ...
    // uta-plan-gemms{sm=90 arch-specific allow-tf32}:
    %c = uta.matmul %a, %b {transpose_b = true, uta.gemm_plan =
        #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32],
                       warps = [2, 1], stages = 4, precision = "tf32">} : ...
    ```
  }];
  let options = [
    Option<"sm", "sm", "unsigned", /*default=*/"0",
           "CUDA compute capability of the target, as convert-uta-to-gpu's">,
    Option<"archSpecific", "arch-specific", "bool", /*default=*/"false",
           "The CUDA target is sm_90a, as convert-uta-to-gpu's">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Let the engine use tensor cores, as convert-uta-to-gpu's">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "f32 products in plain TF32, as convert-uta-to-gpu's">,
    Option<"gemmConfig", "gemm-config", "std::string", /*default=*/"\"\"",
           "Name of a row of the engine's tables that replaces the "
           "heuristic's choice wherever it applies">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

def SplitKPass : Pass<"uta-split-k", "::mlir::ModuleOp"> {
  let summary = "Split long-K GEMMs whose grid leaves SMs idle along K";
  let description = [{
    A `uta.matmul` whose operands both hold K as their outer matrix axis
    (A stored `[..., K, M]` with `transpose_a`, B `[..., K, N]`), as a
    weight gradient `x^T g` does, and whose grid on the GEMM engine would
    not fill the GPU (the engine's `fillsTheGpu`), becomes S partial
    products over runs of K and their sum: each operand reshaped to
    `[..., S, K / S, X]` (no copy), one batched matmul with
    `transpose_a`, and `uta.reduce_sum` over the S axis, which adds the
    partial products in index order. The result is the same on every run
    (no atomics). S is the fewest power of two up to 16 whose grid fills
    the GPU with the tile the engine prefers for the product (the one it
    takes where blocks are plenty), with runs of K at least 512 long; f32
    products only (the sum is f32's). The options name the target as `uta-plan-gemms`' do.

    On sm_90a a `clifford.fc_product_weight_gradient` (K the batch, a block
    per path and tile of the warp-specialised fc_product kernel, which
    `uta-tensor-core-layouts` will give it) takes `batch_runs` = R, R times
    as many blocks each over a run of the batch, and the same
    `uta.reduce_sum` over the runs' leading axis: the R up to 16 (runs of
    whole K tiles, the same tile) whose blocks take least by an estimate
    (each path's blocks as long as its slots' K tiles plus 8 for the
    pipeline's fill and epilogue, handed longest first to the SMs as they
    free up; 16 more for the sum of the runs), where that is at least 10%
    less than one run's. Cl(3,0) at 128 features and a batch of 1024: 20
    blocks, the longest of 3 * 32 + 8 K tiles, become four runs' 80 of
    3 * 8 + 8 (and 16 for their sum).

    ```mlir
    %d = uta.matmul %x, %g {transpose_a = true}
        : (tensor<8192x512xf32>, tensor<8192x512xf32>) -> tensor<512x512xf32>
    // uta-split-k{sm=90 arch-specific allow-tf32}: 8 runs, 128x128 tiles.
    %0 = uta.reshape %x : tensor<8192x512xf32> -> tensor<8x1024x512xf32>
    %1 = uta.reshape %g : tensor<8192x512xf32> -> tensor<8x1024x512xf32>
    %2 = uta.matmul %0, %1 {transpose_a = true}
        : (tensor<8x1024x512xf32>, tensor<8x1024x512xf32>) -> tensor<8x512x512xf32>
    %d = uta.reduce_sum %2 dims [0] : tensor<8x512x512xf32> -> tensor<512x512xf32>
    ```
  }];
  let options = [
    Option<"sm", "sm", "unsigned", /*default=*/"0",
           "CUDA compute capability of the target, as convert-uta-to-gpu's">,
    Option<"archSpecific", "arch-specific", "bool", /*default=*/"false",
           "The CUDA target is sm_90a, as convert-uta-to-gpu's">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Let the engine use tensor cores, as convert-uta-to-gpu's">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "f32 products in plain TF32, as convert-uta-to-gpu's">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say which products were split, and into how many runs">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

def GemmLayoutsPass : Pass<"uta-gemm-layouts", "::mlir::ModuleOp"> {
  let summary = "Copy a matmul operand K-major where wgmma then takes it";
  let description = [{
    sm_90a's wgmma reads A and B K-major only. A `uta.matmul` that the GEMM
    engine would run on mma.sync because one operand is not K-major (A
    given `[K, M]` with `transpose_a` while B is `[N, K]`, or B given `[K,
    N]` while A is `[M, K]`) reads that operand through a K-major copy
    (`uta.transpose`, and the flag flipped) where the engine's planner would
    then take a wgmma schedule, the product has 2^30 operations or more,
    and the other extent (N for A, the rows of A for B) is 1024 or more: a
    linear layer's weights `[K, N]` under a batch of activations. A copied B
    of plain TF32 products is rounded to TF32 (`round_to_tf32`), which the
    tensor cores would otherwise truncate. The pipelines run it in the
    fused phase for CUDA; the canonicalizer would fold the copies back into
    the flags, and none runs between it and the lowering.

    ```mlir
    %h = uta.matmul %x, %w : (tensor<8x8192x512xf32>, tensor<8x512x512xf32>) -> ...
    // uta-gemm-layouts{sm=90 arch-specific allow-tf32}:
    %t = uta.transpose %w [0, 2, 1] {round_to_tf32} : ... -> tensor<8x512x512xf32>
    %h = uta.matmul %x, %t {transpose_b = true} : ...
    ```
  }];
  let options = [
    Option<"sm", "sm", "unsigned", /*default=*/"0",
           "CUDA compute capability of the target, as convert-uta-to-gpu's">,
    Option<"archSpecific", "arch-specific", "bool", /*default=*/"false",
           "The CUDA target is sm_90a, as convert-uta-to-gpu's">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Let the engine use tensor cores, as convert-uta-to-gpu's">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "f32 products in plain TF32, as convert-uta-to-gpu's">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say which operands were copied">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

#endif // UTA_CONVERSION_PASSES_TD
