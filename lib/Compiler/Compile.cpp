//===- Compile.cpp - Compile a graph for a target -------------------------===//

#include "lib/Compiler/Compile.h"

#include "lib/Compiler/ManifestWriter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::uta;

/// A graph's arguments and results become the buffers of its launch sequence,
/// which the runtime allocates from the manifest: every one must have a
/// static shape and an element type the targets store. Checked on the
/// tensors the user wrote, before the pipeline turns them into memrefs.
static LogicalResult verifyEntrySignature(func::FuncOp entry) {
  FunctionType type = entry.getFunctionType();
  for (auto [role, types] : {std::pair{"argument", type.getInputs()},
                             std::pair{"result", type.getResults()}}) {
    for (auto [index, type] : llvm::enumerate(types)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      Type element = tensor ? tensor.getElementType() : Type();
      if (tensor && tensor.hasStaticShape() &&
          (element.isF32() || element.isF16() || element.isBF16()))
        continue;
      return entry.emitOpError()
             << role << " " << index << " has type " << type
             << ": an entry takes and returns only static f32, f16 or bf16 "
                "tensors";
    }
  }
  return success();
}

FailureOr<func::FuncOp> mlir::uta::selectEntry(ModuleOp module,
                                               StringRef entry) {
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isDeclaration())
      candidates.push_back(func);
  func::FuncOp chosen;
  if (!entry.empty()) {
    chosen = module.lookupSymbol<func::FuncOp>(entry);
    if (!chosen || chosen.isDeclaration())
      return module.emitError("no function named '") << entry << "' to compile";
  } else if (candidates.size() == 1) {
    chosen = candidates.front();
  } else if (candidates.empty()) {
    // At the first function there is (private or a declaration), else at
    // the input itself.
    auto functions = module.getOps<func::FuncOp>();
    Location loc =
        functions.empty() ? module.getLoc() : (*functions.begin()).getLoc();
    return emitError(loc, "the input has no public function to compile");
  } else {
    // At the second: the one that makes the choice ambiguous.
    InFlightDiagnostic diag = candidates[1].emitError("the input has ")
                              << candidates.size()
                              << " public functions; choose one with "
                                 "--entry=NAME:";
    for (func::FuncOp func : candidates)
      diag << " @" << func.getName();
    return diag;
  }
  for (func::FuncOp func : candidates)
    if (func != chosen)
      func.setPrivate();
  chosen.setPublic();
  if (failed(verifyEntrySignature(chosen)))
    return failure();
  return chosen;
}

LogicalResult mlir::uta::runPipeline(ModuleOp module, Phase last,
                                     const PipelineOptions &options) {
  PassManager pm(module->getName());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  buildPipeline(pm, last, options);
  return pm.run(module);
}

FailureOr<std::string> mlir::uta::translateKernelsToLLVMIR(ModuleOp module) {
  auto kernels = *module.getOps<gpu::GPUModuleOp>().begin();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(kernels, llvmContext, kernels.getName());
  if (!llvmModule)
    return kernels.emitError("could not translate the kernels to LLVM IR");
  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  return text;
}

FailureOr<std::string> mlir::uta::printTargetPhase(ModuleOp module,
                                                   Phase phase) {
  std::optional<Target> target = getTargetOfPhase(phase);
  if (!target)
    return module.emitError("phase ")
           << getPhaseName(phase) << " has no target module to print";
  const TargetInfo &info = getTargetInfo(*target);
  FailureOr<TargetModule> emitted = info.emitModule(module);
  if (failed(emitted))
    return failure();
  return info.printModule(module, *emitted);
}

FailureOr<CompiledGraph> mlir::uta::compile(ModuleOp module, func::FuncOp entry,
                                            const CompileOptions &options) {
  // What differs between targets is behind TargetInfo (lib/Target).
  const TargetInfo &info = getTargetInfo(options.target);
  std::string entryName = entry.getName().str();
  if (failed(runPipeline(module, info.getFinalPhase(), *options.pipeline)))
    return failure();
  FailureOr<TargetModule> emitted = info.emitModule(module);
  if (failed(emitted))
    return failure();
  CompiledGraph graph;
  graph.module = std::move(emitted->image);

  auto host = module.lookupSymbol<func::FuncOp>(entryName);
  ManifestTarget target{getTargetName(options.target).str(),
                        info.namesSM() ? options.pipeline->sm.getValue()
                                       : std::string(),
                        options.moduleFileName, &emitted->kernels};
  FailureOr<std::string> manifest = writeManifest(host, target);
  if (failed(manifest))
    return failure();
  graph.manifest = std::move(*manifest);
  return graph;
}
