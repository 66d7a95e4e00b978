//===- InitAll.cpp - Register every UTA dialect, pass and pipeline --------===//

#include "lib/Compiler/InitAll.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "lib/Pipelines/Pipelines.h"
#include "passes/Conversion/Passes.h"
#include "passes/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::uta::registerUTADialects(DialectRegistry &registry) {
  registry.insert<uta::UTADialect, uta::clifford::CliffordDialect>();
  // The lowering reaches most upstream dialects and their conversion and
  // translation interfaces; registering them all keeps uta-opt and utac in
  // step with every pipeline.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void mlir::uta::registerUTAPassesAndPipelines() {
  registerUTAConversionPasses();
  registerUTATransformsPasses();
  registerPipelines();
}
