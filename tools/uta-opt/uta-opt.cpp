//===- uta-opt.cpp - MlirOptMain with everything UTA registered -----------===//
//
// Replays any step utac takes: every UTA dialect, pass and named pipeline
// (the pipelines hold the upstream passes utac runs), upstream MLIR's
// dialects and its general transforms are registered. --help lists those;
// LLVM's own options are under --help-hidden.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/HelpOptions.h"
#include "lib/Compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  // LLVM's own options (other targets' code generation, debugging) go to
  // --help-hidden; MlirOptMain's and the passes' stay in --help.
  mlir::uta::hideOptionsRegisteredSoFar();
  // UTA's passes and pipelines, and of upstream MLIR the general transforms
  // (canonicalize, cse, symbol-dce...); mlir-opt has the rest.
  mlir::registerTransformsPasses();
  mlir::uta::registerUTAPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::uta::registerUTADialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "UTA optimizer driver\n", registry));
}
