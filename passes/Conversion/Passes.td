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

//===----------------------------------------------------------------------===//
// MathToNVVM
//===----------------------------------------------------------------------===//

def ConvertMathToPTXPass
    : Pass<"uta-convert-math-to-ptx", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the math ops whose PTX UTA chooses itself, before the "
                "NVVM lowering";
  let description = [{
    `convert-gpu-to-nvvm` maps `math.sqrt` to libdevice's `__nv_sqrtf`, which
    becomes the approximate `sqrt.approx.f32` unless `__CUDA_PREC_SQRT` is
    set. UTA's f32 arithmetic is IEEE single precision, so this pass lowers
    it first to the correctly rounded `sqrt.rn.f32` (an `llvm.inline_asm`
    without side effects; `convert-gpu-to-nvvm` does not accept
    `llvm.intr.sqrt` on f32).

    With `fast-math`, f32 `math.exp`, `math.log` and `math.tanh` become the
    approximate instructions instead of libdevice's accurate functions:
    `ex2.approx.ftz.f32` of x * log2(e), `lg2.approx.ftz.f32` times ln(2),
    and `tanh.approx.f32` (sm_75 and up); the sigmoid, silu and gelu built
    on them follow. Their error is documented in docs/runtime.md, where the
    check's tolerance for fast-math builds comes from.
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "exp, log and tanh as PTX's approximate instructions">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ExternDynamicSharedMemoryPass
    : Pass<"uta-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the NVVM symbol of dynamic shared memory an external "
                "array";
  let description = [{
    `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` to a
    zero-length shared global with internal linkage and 16-byte alignment.
    The NVPTX backend demotes such a global to a one-byte static variable
    (`.shared .b8 __dynamic_shmem__0;`), so a kernel's buffers would start
    inside static shared memory and run 16 bytes past the dynamic size the
    launch gives. This pass, run after the NVVM lowering, gives every
    zero-length shared global external linkage, which PTX spells
    `.extern .shared .align A .b8 name[]`: the symbol of the launch's dynamic
    shared memory. `A` is raised to `alignment` (1024 by default, what
    128-byte swizzled tensor-memory copies need).
  }];
  let options = [
    Option<"alignment", "alignment", "unsigned", /*default=*/"1024",
           "Alignment in bytes of the dynamic shared memory's base">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TensorMapArgumentsPass
    : Pass<"uta-tensor-map-arguments", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pass each kernel's tensor maps by value, as grid constants";
  let description = [{
    A kernel that copies through the tensor memory accelerator takes each
    TMA descriptor (`#uta.tensor_map` in its `uta.tensor_maps`) as an
    `!llvm.ptr` argument. `convert-gpu-to-nvvm` drops argument attributes of
    a `gpu.func` and its verifier rejects `nvvm.grid_constant`, so this
    pass, run after it, marks those arguments of the `llvm.func`
    `llvm.byval = !llvm.array<16 x i64>`, `llvm.align = 64` and
    `nvvm.grid_constant`: PTX's `.param .align 64 .b8 name[128]`, the
    descriptor itself in the kernel's parameters, whose address the copies
    use. Passing the descriptor by reference instead would need it in
    global memory and a fence on every launch.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // UTA_CONVERSION_PASSES_TD
