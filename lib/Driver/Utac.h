//===- Utac.h - The utac driver as a library --------------------*- C++ -*-===//
//
// utac's main is one call into this library (SPEC.md §2).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_DRIVER_UTAC_H
#define UTA_LIB_DRIVER_UTAC_H

namespace mlir::uta {

/// Process exit codes of SPEC.md §2, shared by every utac subcommand.
enum ExitCode : int {
  kSuccess = 0,
  kBadInput = 1,
  kCheckFailed = 2,
  kBackendUnavailable = 3,
};

/// Runs the utac command line; returns the process exit code of SPEC.md §2.
int runUtacMain(int argc, char **argv);

/// `utac run ...` (argv[0] is "utac run"): compile, execute, check.
int runUtacRunMain(int argc, char **argv);

} // namespace mlir::uta

#endif // UTA_LIB_DRIVER_UTAC_H
