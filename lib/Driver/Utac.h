//===- Utac.h - The utac driver as a library --------------------*- C++ -*-===//
//
// utac's main (tools/utac) is one call into this library, so that the tool
// itself holds no logic.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_DRIVER_UTAC_H
#define UTA_LIB_DRIVER_UTAC_H

namespace mlir::uta {

/// Process exit codes, shared by every utac subcommand; uta-run uses the same
/// values (README.md, docs/runtime.md).
enum ExitCode : int {
  kSuccess = 0,
  kBadInput = 1,
  kCheckFailed = 2,
  kBackendUnavailable = 3,
};

/// Runs the utac command line; returns one of the exit codes above.
int runUtacMain(int argc, char **argv);

/// `utac run ...` (argv[0] is "utac run"): compile, execute, check.
int runUtacRunMain(int argc, char **argv);

} // namespace mlir::uta

#endif // UTA_LIB_DRIVER_UTAC_H
