//===- Options.h - The command line of uta-run ------------------*- C++ -*-===//
//
// uta-run has no LLVM, so no llvm::cl: its few options (docs/runtime.md) are
// parsed here by hand. Every option has the form --name or --name=value.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TOOLS_UTARUN_OPTIONS_H
#define UTA_TOOLS_UTARUN_OPTIONS_H

#include "runtime/core/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace uta::runtime {

struct UTARunOptions {
  std::string manifest;
  /// Empty: chosen from the manifest's target.
  std::string backend;
  std::vector<std::string> inputs;
  std::optional<uint64_t> seed;
  std::string saveDir;
  std::string expectDir;
  std::optional<double> tolerance;
  int device = 0;
  bool profile = false;
  /// With --profile, also write the report as JSON to this file.
  std::string profileJson;
  /// With --profile, also write a trace of the launches to this file.
  std::string trace;
  /// With --profile, the device's measured peaks, to place each launch on
  /// the roofline.
  std::string peaks;
  /// Runs of the graph; with --profile the medians are reported.
  unsigned repeat = 1;
  bool printDevice = false;
  bool help = false;
};

/// Parses argv; errors are InvalidInput and name the option.
Expected<UTARunOptions> parseUTARunOptions(int argc, char **argv);

/// The text of --help.
const char *getUTARunHelp();

} // namespace uta::runtime

#endif // UTA_TOOLS_UTARUN_OPTIONS_H
