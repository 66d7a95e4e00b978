//===- Input.h - The .mlir file a utac command reads ------------*- C++ -*-===//
//
// Both `utac` and `utac run` read one .mlir file into a context with every
// UTA dialect, and report its errors with file:line:col for as long as they
// work on it.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_DRIVER_INPUT_H
#define UTA_LIB_DRIVER_INPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace mlir::uta {

class InputModule {
public:
  /// Parses `path` ("-" for stdin); errors go to stderr, a file that cannot
  /// be opened as "`tool`: message". Null on any error.
  static std::unique_ptr<InputModule> parse(llvm::StringRef path,
                                            llvm::StringRef tool);

  /// Fails, printing "`tool`: --entry=NAME: ..." to stderr, when `entry` is
  /// not empty and the input has no function of that name with a body: a
  /// command-line problem, reported as one.
  LogicalResult checkEntryOption(llvm::StringRef entry, llvm::StringRef tool);

  MLIRContext &getContext() { return context; }
  OwningOpRef<ModuleOp> &getModule() { return module; }

private:
  InputModule();

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::uta

#endif // UTA_LIB_DRIVER_INPUT_H
