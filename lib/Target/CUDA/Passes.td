//===- Passes.td - Passes of the CUDA target ---------------*- tablegen -*-===//
//
// The passes of the `llvm` phase around MLIR's NVVM lowering: what UTA
// chooses itself in the PTX (math instructions, the dynamic shared memory
// symbol, tensor maps as kernel parameters).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TARGET_CUDA_PASSES_TD
#define UTA_TARGET_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

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

#endif // UTA_TARGET_CUDA_PASSES_TD
