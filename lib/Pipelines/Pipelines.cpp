//===- Pipelines.cpp - The compilation phases of UTA ----------------------===//

#include "lib/Pipelines/Pipelines.h"

#include "lib/Target/CUDA/Passes.h"
#include "lib/Target/SPIRV/Passes.h"
#include "passes/Conversion/Passes.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::uta;

bool mlir::uta::isSupportedSM(StringRef sm) {
  return llvm::is_contained({"80", "86", "89", "90", "90a"}, sm);
}

std::string mlir::uta::getCudaToolkitPath(const PipelineOptions &options) {
  if (!options.cudaToolkit.empty())
    return options.cudaToolkit;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    return home;
  return "/usr/local/cuda";
}

/// Phase `uta`: simplification of the input graph. The canonicalizer folds
/// both dialects and erases dead ops; clifford-simplify-grades then folds
/// what the grade analysis knows and records operand blades on products,
/// which leaves dead producers and new constants for a second round.
static void buildUtaPhase(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCliffordSimplifyGradesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Phase `fused`: on CUDA long-K GEMMs that leave SMs idle split along K,
/// long reductions to few outputs split in two, then the
/// graph partitioned into uta.fusion kernels, for a CUDA
/// target when `cuda` (on sm_90a, operands first stored in the layouts its
/// tensor cores read).
static void buildFusedPhase(OpPassManager &pm, const PipelineOptions &options,
                            bool cuda) {
  if (cuda && options.tensorCores) {
    // Weight gradients whose grid leaves SMs idle: partial products over
    // runs of K, summed in order (before the reductions are split, so that
    // their sum is one of them).
    SplitKPassOptions splitK;
    StringRef(options.sm).take_while(llvm::isDigit).getAsInteger(10, splitK.sm);
    splitK.archSpecific = StringRef(options.sm).ends_with("a");
    splitK.allowTf32 = options.allowTf32;
    splitK.remarks = options.remarks;
    if (options.splitK)
      pm.addPass(createSplitKPass(splitK));
    // Operands copied K-major where wgmma then takes the product; nothing
    // folds them back before the lowering.
    GemmLayoutsPassOptions layouts;
    layouts.sm = splitK.sm;
    layouts.archSpecific = splitK.archSpecific;
    layouts.allowTf32 = splitK.allowTf32;
    layouts.remarks = options.remarks;
    pm.addPass(createGemmLayoutsPass(layouts));
  }
  pm.addNestedPass<func::FuncOp>(createUTASplitReductionsPass());
  UTAFuseKernelsPassOptions fuse;
  fuse.policy = options.fusion;
  fuse.remarks = options.remarks;
  fuse.tensorCores = cuda && options.tensorCores;
  if (fuse.tensorCores) {
    // sm_90a's warp-specialised fc_product reads the gates as an operand,
    // one tile per K tile where its steps run K tile by K tile (TF32). A
    // named fc_product row of another schedule ("fc..." but not
    // "fctma...") reads no gate: pair_gate there.
    StringRef config = options.gemmConfig;
    bool namesOtherFcRow =
        config.starts_with("fc") && !config.starts_with("fctma");
    UTAFoldScalarGatesPassOptions fold;
    fold.gateOperand =
        StringRef(options.sm) == "90a" && options.allowTf32 && !namesOtherFcRow;
    pm.addNestedPass<func::FuncOp>(createUTAFoldScalarGatesPass(fold));
    UTAShareFcAdjointGemmsPassOptions share;
    share.remarks = options.remarks;
    pm.addNestedPass<func::FuncOp>(createUTAShareFcAdjointGemmsPass(share));
  }
  if (fuse.tensorCores && StringRef(options.sm) == "90a") {
    // Plain TF32 products read the copied weights as TF32: rounded there,
    // not truncated by the tensor cores.
    UTATensorCoreLayoutsPassOptions layouts;
    layouts.roundToTf32 = options.allowTf32;
    pm.addNestedPass<func::FuncOp>(createUTATensorCoreLayoutsPass(layouts));
  }
  pm.addNestedPass<func::FuncOp>(createUTAFuseKernelsPass(fuse));
}

/// Phase `gpu`: kernels outlined, host side a launch sequence (for CUDA,
/// independent kernels in a row launched as one grid), identical kernels
/// merged into one. `cuda`: the kernels are for a CUDA target of
/// architecture `options.sm`, whose matmuls may use tensor cores.
static void buildGpuPhase(OpPassManager &pm, const PipelineOptions &options,
                          bool cuda) {
  ConvertUTAToGPUPassOptions outline;
  outline.blockSize = options.blockSize;
  outline.vectorize = options.vectorize;
  // "90a" is compute capability 90 with the architecture-specific features.
  unsigned sm = 0;
  if (cuda)
    StringRef(options.sm).take_while(llvm::isDigit).getAsInteger(10, sm);
  outline.sm = sm;
  outline.archSpecific = cuda && StringRef(options.sm).ends_with("a");
  outline.tensorCores = options.tensorCores;
  outline.allowTf32 = options.allowTf32;
  outline.gemmConfig = options.gemmConfig;
  outline.remarks = options.remarks;
  // The GEMM plans go into the IR first, where the lowering reads them.
  PlanGemmsPassOptions plan;
  plan.sm = outline.sm;
  plan.archSpecific = outline.archSpecific;
  plan.tensorCores = outline.tensorCores;
  plan.allowTf32 = outline.allowTf32;
  plan.gemmConfig = outline.gemmConfig;
  pm.addPass(createPlanGemmsPass(plan));
  // Outlining keeps one of each kind of kernel it makes (a repeated layer
  // is compiled once, whatever the target).
  pm.addPass(createConvertUTAToGPUPass(outline));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Measured on CUDA only: FCGP's two memory-bound kernels in one grid take
  // a sixth less time on an H100 (docs/phases.md). Fusion policy none
  // keeps one kernel per op.
  if (cuda && options.mergeLaunches && options.fusion != "none")
    pm.addPass(createUTAMergeIndependentLaunchesPass({options.remarks}));
  // What became identical since: merged launches of the same parts, kernels
  // the canonicalizer made equal.
  pm.addPass(createUTADeduplicateKernelsPass({options.remarks}));
}

/// Phase `llvm`: kernels in the LLVM dialect with NVVM intrinsics, libdevice
/// attached for the later link.
static void buildLlvmPhase(OpPassManager &pm, const PipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = "sm_" + options.sm.getValue();
  // sm_90a needs PTX 8.0; MLIR picks the lowest PTX the chip allows.
  target.optLevel = 3;
  target.linkLibs.push_back(getCudaToolkitPath(options) +
                            "/nvvm/libdevice/libdevice.10.bc");
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  ConvertMathToPTXPassOptions math;
  math.fastMath = options.fastMath;
  kernels.addPass(createConvertMathToPTXPass(math));
  // The GEMM engine's cp.async, ldmatrix and mma.sync.
  kernels.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  // Static shapes make a buffer one pointer: the bare-pointer convention,
  // which MLIR only accepts for statically shaped memrefs.
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // TMA descriptors: by-value kernel parameters.
  kernels.addPass(createTensorMapArgumentsPass());
  // NVVM ops without an LLVM intrinsic (wgmma) become inline PTX.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createExternDynamicSharedMemoryPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

/// Phase `ptx`: the kernels serialized to PTX in a gpu.binary.
static void buildPtxPhase(OpPassManager &pm, const PipelineOptions &options) {
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = getCudaToolkitPath(options);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// Phase `spirv` (and `msl`, which reads the same program): each kernel in
/// a spirv.module of its own for Vulkan, next to its gpu.module
/// (lib/Target/SPIRV merges them into one binary and validates it); one
/// module per kernel keeps MLIR's symbol lookups, which scan a module,
/// linear in the number of kernels. scf stays structured, since Vulkan's
/// SPIR-V needs structured control flow, which the lowering builds from scf
/// but not from cf; shared memory becomes Workgroup allocations, loop
/// results are made defined for zero-trip loops, and math.erf, which
/// GLSL.std.450 lacks, is expanded first.
static void buildSpirvPhase(OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(createUTASPIRVSplitKernelModulesPass());
  pm.addPass(createUTASPIRVAttachTargetPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createUTASPIRVMapWorkgroupMemoryPass());
  kernels.addPass(createUTASPIRVGuardLoopResultsPass());
  kernels.addPass(createUTASPIRVExpandMathPass());
  kernels.addPass(createConvertMathToSPIRVPass());
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(createUTASPIRVVectorStoragePass());
  if (options.fastMath)
    spirvModule.addPass(createUTASPIRVRelaxPrecisionPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
}

void mlir::uta::buildPipeline(OpPassManager &pm, Phase last,
                              const PipelineOptions &options) {
  bool cuda = last != Phase::Spirv && last != Phase::Msl;
  buildUtaPhase(pm);
  if (last == Phase::Uta)
    return;
  buildFusedPhase(pm, options, cuda);
  if (last == Phase::Fused)
    return;
  buildGpuPhase(pm, options, cuda);
  if (last == Phase::Gpu)
    return;
  if (last == Phase::Spirv || last == Phase::Msl)
    return buildSpirvPhase(pm, options);
  buildLlvmPhase(pm, options);
  if (last == Phase::Llvm)
    return;
  buildPtxPhase(pm, options);
}

void mlir::uta::registerPipelines() {
  struct Registration {
    const char *name;
    const char *description;
    Phase phase;
  };
  static const Registration registrations[] = {
      {"uta-simplify-pipeline", "UTA phase `uta`: simplify the graph",
       Phase::Uta},
      {"uta-fuse-pipeline", "UTA phase `fused`: partition into kernels",
       Phase::Fused},
      {"uta-lower-to-gpu-pipeline",
       "UTA phase `gpu`: outline kernels and the launch sequence", Phase::Gpu},
      {"uta-lower-to-llvm-pipeline",
       "UTA phase `llvm`: kernels in the LLVM and NVVM dialects", Phase::Llvm},
      {"uta-lower-to-ptx-pipeline",
       "UTA phase `ptx`: kernels serialized to PTX", Phase::Ptx},
      {"uta-lower-to-spirv-pipeline",
       "UTA phase `spirv`: kernels in one spirv.module for Vulkan",
       Phase::Spirv},
  };
  registerUTACUDATargetPasses();
  registerUTASPIRVTargetPasses();
  for (const Registration &r : registrations) {
    PassPipelineRegistration<PipelineOptions>(
        r.name, r.description,
        [phase = r.phase](OpPassManager &pm, const PipelineOptions &options) {
          buildPipeline(pm, phase, options);
        });
  }
}
