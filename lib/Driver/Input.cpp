//===- Input.cpp - The .mlir file a utac command reads --------------------===//

#include "lib/Driver/Input.h"

#include "lib/Compiler/InitAll.h"
#include "lib/Compiler/NestingLimit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::uta;

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerUTADialects(registry);
  return registry;
}

InputModule::InputModule()
    : context(makeRegistry()), diagnostics(sourceMgr, &context) {
  // A located error is enough for a user; the whole module printed after
  // it (MLIR's default) buries it. --mlir-print-op-on-diagnostic still
  // asks for it.
  auto &options = llvm::cl::getRegisteredOptions();
  auto flag = options.find("mlir-print-op-on-diagnostic");
  if (flag == options.end() || flag->second->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
}

std::unique_ptr<InputModule> InputModule::parse(StringRef path,
                                                StringRef tool) {
  std::unique_ptr<InputModule> input(new InputModule());
  std::string errorMessage;
  auto file = openInputFile(path, &errorMessage);
  if (!file) {
    llvm::errs() << tool << ": " << errorMessage << "\n";
    return nullptr;
  }
  llvm::StringRef text = file->getBuffer();
  llvm::StringRef name = file->getBufferIdentifier();
  input->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // MLIR's parser recurses once per nesting level: bound it first.
  if (failed(checkNestingDepth(text, name, &input->context)))
    return nullptr;
  input->module = parseSourceFile<ModuleOp>(input->sourceMgr, &input->context);
  if (!input->module)
    return nullptr;
  return input;
}

LogicalResult InputModule::checkEntryOption(StringRef entry, StringRef tool) {
  if (entry.empty())
    return success();
  auto func = module->lookupSymbol<func::FuncOp>(entry);
  if (func && !func.isDeclaration())
    return success();
  llvm::errs() << tool << ": --entry=" << entry
               << ": the input has no function of that name with a body\n";
  return failure();
}
