//===- Profile.h - uta-run's per-launch profile report ----------*- C++ -*-===//
//
// `uta-run --profile`: each launch's median GPU time and, from the cost the
// manifest records for it (launches[].cost), the rates it reached:
// operations per second by unit and bytes per second. Printed as text, and
// with --profile-json written as JSON for plots and scripts.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TOOLS_UTA_RUN_PROFILE_H
#define UTA_TOOLS_UTA_RUN_PROFILE_H

#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace uta::runtime {

struct LaunchProfile {
  size_t launch = 0;
  std::string kernel;
  /// Median milliseconds over `runs` runs.
  double milliseconds = 0;
  size_t runs = 0;
  std::optional<LaunchDesc::Cost> cost;
};

struct ProfileReport {
  std::string device;
  std::vector<LaunchProfile> launches;
  /// Median of the runs' totals, over `runs` runs.
  double totalMilliseconds = 0;
  size_t runs = 0;
};

/// The report as uta-run prints it: a line per launch, then the total.
std::string formatProfile(const ProfileReport &report);

/// The report as JSON (format "uta-profile", version 1), written
/// atomically.
Status writeProfileJson(const std::string &path, const ProfileReport &report);

} // namespace uta::runtime

#endif // UTA_TOOLS_UTA_RUN_PROFILE_H
