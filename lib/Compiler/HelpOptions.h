//===- HelpOptions.h - What the tools' --help shows -------------*- C++ -*-===//
//
// utac and uta-opt link all of LLVM and MLIR, whose libraries register
// hundreds of command-line options of their own (code generation flags for
// other targets, debugging switches). --help lists the tool's options; those
// others stay reachable under --help-hidden, as in iree-compile.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_HELPOPTIONS_H
#define UTA_LIB_COMPILER_HELPOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::uta {

/// Moves every registered option that is in none of `shown` (and is not
/// --help, --help-hidden, --version...) to --help-hidden.
void hideOptionsOutside(llvm::ArrayRef<const llvm::cl::OptionCategory *> shown);

/// Moves every option registered so far to --help-hidden: called before a
/// tool registers its own, it hides those of the libraries.
void hideOptionsRegisteredSoFar();

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_HELPOPTIONS_H
