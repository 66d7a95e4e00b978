//===- Utac.cpp - The utac driver -----------------------------------------===//
//
// Parses the command line, reads and verifies the input with MLIR's own
// parser, and reports located diagnostics. Exit codes follow SPEC.md §2.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Utac.h"

#include "lib/Compiler/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Process exit codes of SPEC.md §2.
enum ExitCode : int {
  kSuccess = 0,
  kBadInput = 1,
  kCheckFailed = 2,
  kBackendUnavailable = 3,
};
} // namespace

int mlir::uta::runUtacMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input .mlir file>"),
      llvm::cl::init("-"));

  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "utac: the UTA compiler driver\n\n"
      "Reads a graph of uta and clifford ops (an .mlir file), verifies it and\n"
      "reports errors with their file:line:col.\n");

  DialectRegistry registry;
  registerUTADialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << "utac: " << errorMessage << "\n";
    return kBadInput;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return kBadInput;
  return kSuccess;
}
