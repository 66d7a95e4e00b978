//===- Passes.td - Passes of the SPIR-V target -------------*- tablegen -*-===//
//
// The passes the `spirv` phase runs before MLIR's GPU-to-SPIR-V conversion
// (keep alphabetical).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TARGET_SPIRV_PASSES_TD
#define UTA_TARGET_SPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def UTASPIRVAttachTargetPass
    : Pass<"uta-spirv-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the Vulkan SPIR-V target to a module of GPU kernels";
  let description = [{
    Prepares the kernels of every `gpu.module` for `convert-gpu-to-spirv`:

    - the module gets `spirv.target_env`: Vulkan, SPIR-V up to 1.3, the
      `Shader` capability and `SPV_KHR_storage_buffer_storage_class`; when a
      kernel touches f16, also `Float16`, `StorageBuffer16BitAccess` and
      `SPV_KHR_16bit_storage`;
    - each kernel gets `spirv.entry_point_abi` with its `known_block_size`
      as the workgroup size;
    - argument `i` of each kernel gets `spirv.interface_var_abi` (set 0,
      binding `i`): this is the ABI that the manifest describes.

    bf16 has no SPIR-V storage type: a kernel that uses it is an error
    located at the op that does.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def UTASPIRVExpandMathPass : Pass<"uta-spirv-expand-math"> {
  let summary = "Expand math ops that have no SPIR-V (GLSL.std.450) lowering";
  let description = [{
    `convert-math-to-spirv` has no lowering of `math.erf` (GLSL.std.450 has
    no erf). This pass replaces every f32 `math.erf` with MLIR's piecewise
    rational approximation, built from arith and math ops that do lower.
    Against libm's double erf its largest absolute error is 2.5e-7 and its
    largest relative error 2.6e-7 (test/Target/SPIRV/erf-accuracy.mlir).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def UTASPIRVGuardLoopResultsPass : Pass<"uta-spirv-guard-loop-results"> {
  let summary = "Make scf.for results defined when the loop runs zero times";
  let description = [{
    MLIR's SCF-to-SPIR-V lowering keeps the results of an `scf.for` in
    Function variables that only the loop body writes: when the loop runs
    zero times, the results are read from variables that were never
    written (undefined; NVIDIA's driver returns garbage where lavapipe
    happens to return zero). This pass puts every `scf.for` with results
    whose trip count is not known to be positive under an `scf.if` on
    `lower < upper`, whose else branch yields the initial values; that
    lowering stores on both branches.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def UTASPIRVMapWorkgroupMemoryPass
    : Pass<"uta-spirv-map-workgroup-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give kernels' shared memory a form the SPIR-V lowering takes";
  let description = [{
    `convert-gpu-to-spirv` turns a workgroup attribution of a `gpu.func`
    into an argument of the entry point (which Vulkan forbids), and its
    Vulkan storage-class map does not know `#gpu.address_space<...>`. This
    pass replaces each workgroup (private) attribution with a
    `memref.alloc` (`memref.alloca`) at the top of the kernel, which
    MemRefToSPIRV lowers to a Workgroup (Function) variable, and rewrites
    the `#gpu.address_space<workgroup|private>` memory space of every memref
    in the kernels to the SPIR-V storage class
    (`#spirv.storage_class<Workgroup|Function>`).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def UTASPIRVRelaxPrecisionPass
    : Pass<"uta-spirv-relax-precision", "::mlir::spirv::ModuleOp"> {
  let summary = "Decorate the transcendental functions RelaxedPrecision "
                "(--fast-math)";
  let description = [{
    Adds the `RelaxedPrecision` decoration to every f32 GLSL.std.450 `Exp`,
    `Log`, `Tanh` and `Pow` of the module: the driver may then compute them
    at lower precision (down to mediump, about 1e-3 relative). The utac
    option `--fast-math` runs it; drivers that ignore the decoration
    (lavapipe does) compute exactly what they did without it.
  }];
}

def UTASPIRVSplitKernelModulesPass
    : Pass<"uta-spirv-split-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Give every GPU kernel a gpu.module of its own";
  let description = [{
    Moves each kernel of a `gpu.module` that holds several into a new
    `gpu.module` named after the kernel (with the module's attributes, the
    SPIR-V target among them) and points its `gpu.launch_func`s there.
    `convert-gpu-to-spirv` then makes one `spirv.module` per kernel, which
    keeps the SPIR-V phase linear in the number of kernels: MLIR's
    `spirv.mlir.addressof` verifier and `spirv-lower-abi-attrs` look
    symbols up by scanning their `spirv.module`, quadratic in one module
    that holds every kernel. lib/Target/SPIRV merges the modules into one
    binary. Non-kernel functions of a module (none
    come out of convert-uta-to-gpu) leave it unsplit.
  }];
}

def UTASPIRVVectorStoragePass
    : Pass<"uta-spirv-vector-storage", "::mlir::spirv::ModuleOp"> {
  let summary = "Give vector accesses of storage buffers a Vulkan-legal form";
  let description = [{
    MLIR lowers a `vector.load`/`vector.store` of a memref to an OpBitcast of
    the element pointer to a vector pointer, which Vulkan's logical
    addressing forbids. Run on the spirv.module after
    `spirv-lower-abi-attrs`, this pass retypes each storage buffer
    `struct { T[N] }` that such accesses use to `struct { vec4<T>[N/4] }`
    (the same bytes) when N is a multiple of 4 and every vector access
    carries an `Aligned` of the vector's size: vector access at element i ->
    vec4 i/4; scalar access -> component i%4 of vec4 i/4 (an OpAccessChain
    into the vector). The vector accesses of any other buffer become 4
    scalar accesses each.
  }];
}

def UTATestSPIRVValidatePass
    : Pass<"uta-test-spirv-validate", "::mlir::ModuleOp"> {
  let summary = "Test only: serialize and validate each top-level spirv.module";
  let description = [{
    Runs the serializer and the in-process SPIRV-Tools validator (Vulkan 1.1)
    that `utac --target=spirv` runs, on every spirv.module at the top of the
    input, so that the validator's error path is reachable from a test with
    a hand-written module. A module that fails is a located error.
  }];
}

#endif // UTA_TARGET_SPIRV_PASSES_TD
