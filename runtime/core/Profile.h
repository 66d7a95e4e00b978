//===- Profile.h - Per-launch profile reports -------------------*- C++ -*-===//
//
// `uta-run --profile` and `utac run --profile`: each launch's median GPU
// time and, from the cost the manifest records for it (launches[].cost), the
// rates it reached: operations per second by unit and bytes per second.
// Printed as text; written as JSON for plots and scripts, and as a trace
// for Perfetto or chrome://tracing.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_PROFILE_H
#define UTA_RUNTIME_CORE_PROFILE_H

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
  /// The GEMM engine's table row the kernel runs; empty off the engine.
  std::string plan;
};

/// What a device reaches at best, measured on it (bench/roofline/calibrate.py
/// writes the file): the bandwidth of a large copy and the operations per
/// second of each unit.
struct DevicePeaks {
  std::string device;
  double bytesPerSecond = 0;
  std::vector<std::pair<std::string, double>> flopsPerSecond;
};

/// Reads a peaks file: JSON {"format": "uta-peaks", "version": 1, "device":
/// NAME, "bytes_per_second": B, "flops_per_second": {UNIT: F, ...}}, every
/// rate positive.
Expected<DevicePeaks> readDevicePeaks(const std::string &path);

/// Where a launch stands against the roofline: the least time its cost
/// allows (its bytes at the peak bandwidth, or one unit's operations at
/// that unit's peak, whichever is longest), what sets it, and the fraction
/// of the launch's time it is.
struct RooflinePoint {
  double milliseconds = 0;
  /// "memory", or the unit ("tf32", "simt", ...).
  std::string bound;
  double fraction = 0;
};

/// The point of `cost` done in `milliseconds` against `peaks`; nullopt
/// where a unit of the cost has no peak or the time is zero.
std::optional<RooflinePoint> placeOnRoofline(const LaunchDesc::Cost &cost,
                                             double milliseconds,
                                             const DevicePeaks &peaks);

/// The median of `milliseconds` (the upper one of an even count), as every
/// profile reports a launch's time over several runs; 0 for none.
double medianMilliseconds(std::vector<double> milliseconds);

struct ProfileReport {
  std::string device;
  /// With peaks, each launch's line and JSON entry place it on the roofline.
  std::optional<DevicePeaks> peaks;
  std::vector<LaunchProfile> launches;
  /// Median of the runs' totals, over `runs` runs.
  double totalMilliseconds = 0;
  size_t runs = 0;
};

/// "; 12.3 TFLOP/s tf32, 0.41 TFLOP/s simt, 1830 GB/s": the rates of
/// `cost` done in `milliseconds` (empty for a zero time), as the launch
/// lines of a profile end.
std::string formatRates(const LaunchDesc::Cost &cost, double milliseconds);

/// The report as uta-run prints it: a line per launch, then the total.
std::string formatProfile(const ProfileReport &report);

/// The report as JSON text (format "uta-profile", version 1).
std::string formatProfileJson(const ProfileReport &report);

/// The report as JSON (format "uta-profile", version 1), written
/// atomically.
Status writeProfileJson(const std::string &path, const ProfileReport &report);

/// The launches of one median run laid end to end as a trace (Trace Event
/// Format: a complete event per launch, microseconds, its cost and rates as
/// arguments), written atomically; Perfetto and chrome://tracing open it.
Status writeProfileTrace(const std::string &path, const ProfileReport &report);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_PROFILE_H
