//===- uta-opt.cpp - MlirOptMain with everything UTA registered -----------===//
//
// Replays any step utac takes: every UTA dialect, pass and named pipeline
// (the pipelines hold the upstream passes utac runs), upstream MLIR's
// dialects and its general transforms are registered. --help lists those;
// LLVM's own options are under --help-hidden. Unlike mlir-opt, it bounds the
// nesting of its input before MLIR's parser reads it
// (lib/Compiler/NestingLimit.h), so deep input is an error, not a stack
// overflow.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/HelpOptions.h"
#include "lib/Compiler/InitAll.h"
#include "lib/Compiler/NestingLimit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

/// Whether `file` may reach MLIR's parser (lib/Compiler/NestingLimit.h);
/// otherwise prints a located error.
static bool checkInput(const llvm::MemoryBuffer &file) {
  std::optional<mlir::uta::InputRefusal> refusal =
      mlir::uta::getInputRefusal(file.getBuffer());
  if (!refusal)
    return true;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file.getBuffer(),
                                       file.getBufferIdentifier()),
      llvm::SMLoc());
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(file.getBufferStart() + refusal->at.offset),
      llvm::SourceMgr::DK_Error, refusal->message);
  return false;
}

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
  // MlirOptMain(argc, argv, ...) with the input checked between opening it
  // and parsing it.
  llvm::InitLLVM initLLVM(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "UTA optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (!checkInput(*file))
    return EXIT_FAILURE;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
