//===- uta-opt.cpp - MlirOptMain with everything UTA registered -----------===//
//
// Replays any step utac takes: every UTA dialect, pass and named pipeline, and
// all of upstream MLIR, are registered.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::uta::registerUTAPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::uta::registerUTADialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "UTA optimizer driver\n", registry));
}
