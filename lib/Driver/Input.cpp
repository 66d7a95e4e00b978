//===- Input.cpp - The .mlir file a utac command reads --------------------===//

#include "lib/Driver/Input.h"

#include "lib/Compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::uta;

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerUTADialects(registry);
  return registry;
}

InputModule::InputModule()
    : context(makeRegistry()), diagnostics(sourceMgr, &context) {}

std::unique_ptr<InputModule> InputModule::parse(StringRef path,
                                                StringRef tool) {
  std::unique_ptr<InputModule> input(new InputModule());
  std::string errorMessage;
  auto file = openInputFile(path, &errorMessage);
  if (!file) {
    llvm::errs() << tool << ": " << errorMessage << "\n";
    return nullptr;
  }
  input->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  input->module = parseSourceFile<ModuleOp>(input->sourceMgr, &input->context);
  if (!input->module)
    return nullptr;
  return input;
}
