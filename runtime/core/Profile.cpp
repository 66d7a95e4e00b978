//===- Profile.cpp - Per-launch profile reports ---------------------------===//

#include "runtime/core/Profile.h"

#include "runtime/core/AtomicFile.h"
#include "runtime/core/UntrustedFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace uta::runtime;

namespace {

/// The operations of `cost` summed with those of other launches.
void addCost(LaunchDesc::Cost &sum, const LaunchDesc::Cost &cost) {
  for (const auto &[unit, count] : cost.flops) {
    auto it =
        std::find_if(sum.flops.begin(), sum.flops.end(),
                     [&](const auto &entry) { return entry.first == unit; });
    if (it == sum.flops.end())
      sum.flops.emplace_back(unit, count);
    else
      it->second += count;
  }
  sum.bytesRead += cost.bytesRead;
  sum.bytesWritten += cost.bytesWritten;
}

nlohmann::json describeCost(const LaunchDesc::Cost &cost, double milliseconds,
                            const std::optional<DevicePeaks> &peaks) {
  nlohmann::json flops = nlohmann::json::object(),
                 rates = nlohmann::json::object();
  double seconds = milliseconds * 1e-3;
  for (const auto &[unit, count] : cost.flops) {
    flops[unit] = count;
    if (seconds > 0)
      rates[unit] = double(count) / seconds;
  }
  nlohmann::json described{{"flops", std::move(flops)},
                           {"bytes_read", cost.bytesRead},
                           {"bytes_written", cost.bytesWritten}};
  if (seconds > 0) {
    described["flops_per_second"] = std::move(rates);
    described["bytes_per_second"] =
        double(cost.bytesRead + cost.bytesWritten) / seconds;
  }
  if (peaks)
    if (std::optional<RooflinePoint> point =
            placeOnRoofline(cost, milliseconds, *peaks))
      described["roofline"] = {{"milliseconds", point->milliseconds},
                               {"bound", point->bound},
                               {"fraction", point->fraction}};
  return described;
}

/// ", 71% of its roofline (memory)", or empty without peaks or a point.
std::string formatRoofline(const LaunchDesc::Cost &cost, double milliseconds,
                           const std::optional<DevicePeaks> &peaks) {
  if (!peaks)
    return "";
  std::optional<RooflinePoint> point =
      placeOnRoofline(cost, milliseconds, *peaks);
  if (!point)
    return ", no roofline (a unit without a peak)";
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, ", %.0f%% of its roofline (%s)",
                point->fraction * 100, point->bound.c_str());
  return buffer;
}

} // namespace

double uta::runtime::medianMilliseconds(std::vector<double> milliseconds) {
  if (milliseconds.empty())
    return 0;
  auto middle = milliseconds.begin() + milliseconds.size() / 2;
  std::nth_element(milliseconds.begin(), middle, milliseconds.end());
  return *middle;
}

std::optional<RooflinePoint>
uta::runtime::placeOnRoofline(const LaunchDesc::Cost &cost, double milliseconds,
                              const DevicePeaks &peaks) {
  if (!(milliseconds > 0) || !(peaks.bytesPerSecond > 0))
    return std::nullopt;
  RooflinePoint point;
  point.bound = "memory";
  point.milliseconds =
      double(cost.bytesRead + cost.bytesWritten) / peaks.bytesPerSecond * 1e3;
  for (const auto &[unit, count] : cost.flops) {
    auto peak =
        std::find_if(peaks.flopsPerSecond.begin(), peaks.flopsPerSecond.end(),
                     [&](const auto &entry) { return entry.first == unit; });
    if (peak == peaks.flopsPerSecond.end() || !(peak->second > 0))
      return std::nullopt;
    double unitMilliseconds = double(count) / peak->second * 1e3;
    if (unitMilliseconds > point.milliseconds) {
      point.milliseconds = unitMilliseconds;
      point.bound = unit;
    }
  }
  point.fraction = point.milliseconds / milliseconds;
  return point;
}

Expected<DevicePeaks> uta::runtime::readDevicePeaks(const std::string &path) {
  // A peaks file is a few hundred bytes; anything past 1 MiB is not one.
  Expected<std::vector<std::byte>> bytes = readFileBytes(path, 1 << 20);
  if (!bytes)
    return bytes.status();
  std::string text(reinterpret_cast<const char *>(bytes->data()),
                   bytes->size());
  auto invalid = [&](const std::string &what) {
    return Status::error(ErrorCode::InvalidInput, path + ": " + what);
  };
  nlohmann::json document =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || !document.is_object())
    return invalid("not a JSON object");
  // (Each key's type is checked before its value is read: the runtime has
  // no exceptions, and nlohmann's typed reads would throw.)
  if (!document.contains("format") || document["format"] != "uta-peaks" ||
      !document.contains("version") || document["version"] != 1)
    return invalid("not a peaks file (format \"uta-peaks\", version 1)");
  DevicePeaks peaks;
  if (!document.contains("device") || !document["device"].is_string())
    return invalid("\"device\": expected a string");
  peaks.device = document["device"].get<std::string>();
  auto positive = [](const nlohmann::json &value) {
    return value.is_number() && value.get<double>() > 0 &&
           std::isfinite(value.get<double>());
  };
  if (!document.contains("bytes_per_second") ||
      !positive(document["bytes_per_second"]))
    return invalid("\"bytes_per_second\": expected a positive number");
  peaks.bytesPerSecond = document["bytes_per_second"].get<double>();
  if (!document.contains("flops_per_second") ||
      !document["flops_per_second"].is_object())
    return invalid("\"flops_per_second\": expected an object");
  for (const auto &[unit, rate] : document["flops_per_second"].items()) {
    if (!positive(rate))
      return invalid("\"flops_per_second\"." + unit +
                     ": expected a positive number");
    peaks.flopsPerSecond.emplace_back(unit, rate.get<double>());
  }
  return peaks;
}

std::string uta::runtime::formatRates(const LaunchDesc::Cost &cost,
                                      double milliseconds) {
  if (!(milliseconds > 0))
    return "";
  std::string text = ";";
  char buffer[64];
  for (const auto &[unit, count] : cost.flops) {
    std::snprintf(buffer, sizeof buffer, " %.3g TFLOP/s %s,",
                  double(count) / milliseconds * 1e-9, unit.c_str());
    text += buffer;
  }
  std::snprintf(buffer, sizeof buffer, " %.4g GB/s",
                double(cost.bytesRead + cost.bytesWritten) / milliseconds *
                    1e-6);
  return text + buffer;
}

std::string uta::runtime::formatProfile(const ProfileReport &report) {
  std::string text = "device: " + report.device + "\n";
  char buffer[512];
  LaunchDesc::Cost total;
  bool everyCost = true;
  for (const LaunchProfile &launch : report.launches) {
    std::string kernel = launch.kernel;
    if (!launch.plan.empty())
      kernel.append(" (").append(launch.plan).append(")");
    std::snprintf(buffer, sizeof buffer,
                  "launch %zu: %s: %.4f ms (median of %zu)", launch.launch,
                  kernel.c_str(), launch.milliseconds, launch.runs);
    text += buffer;
    if (launch.cost) {
      text += formatRates(*launch.cost, launch.milliseconds);
      text += formatRoofline(*launch.cost, launch.milliseconds, report.peaks);
      addCost(total, *launch.cost);
    } else {
      everyCost = false;
    }
    text += "\n";
  }
  std::snprintf(buffer, sizeof buffer,
                "total: %.4f ms in %zu launches (median of %zu)",
                report.totalMilliseconds, report.launches.size(), report.runs);
  text += buffer;
  if (everyCost && !report.launches.empty()) {
    text += formatRates(total, report.totalMilliseconds);
    text += formatRoofline(total, report.totalMilliseconds, report.peaks);
  }
  return text + "\n";
}

/// `document` as indented JSON text; kernel names and device descriptions
/// that are not UTF-8 are replaced, never thrown over.
static std::string dumpJson(const nlohmann::json &document) {
  return document.dump(2, ' ', false,
                       nlohmann::json::error_handler_t::replace) +
         "\n";
}

static Status writeText(const std::string &path, const std::string &text) {
  return writeFileAtomically(
      path, {std::as_bytes(std::span(text.data(), text.size()))});
}

Status uta::runtime::writeProfileTrace(const std::string &path,
                                       const ProfileReport &report) {
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 0},
                    {"args", {{"name", report.device}}}});
  double start = 0;
  for (const LaunchProfile &launch : report.launches) {
    nlohmann::json args{{"launch", launch.launch}, {"runs", launch.runs}};
    if (!launch.plan.empty())
      args["plan"] = launch.plan;
    if (launch.cost)
      args["cost"] =
          describeCost(*launch.cost, launch.milliseconds, report.peaks);
    events.push_back({{"name", launch.kernel},
                      {"cat", "kernel"},
                      {"ph", "X"},
                      {"pid", 0},
                      {"tid", 0},
                      {"ts", start * 1e3},
                      {"dur", launch.milliseconds * 1e3},
                      {"args", std::move(args)}});
    start += launch.milliseconds;
  }
  return writeText(path, dumpJson({{"traceEvents", std::move(events)},
                                   {"displayTimeUnit", "ns"}}));
}

std::string uta::runtime::formatProfileJson(const ProfileReport &report) {
  nlohmann::json launches = nlohmann::json::array();
  for (const LaunchProfile &launch : report.launches) {
    nlohmann::json entry{{"launch", launch.launch},
                         {"kernel", launch.kernel},
                         {"milliseconds", launch.milliseconds},
                         {"runs", launch.runs}};
    if (!launch.plan.empty())
      entry["plan"] = launch.plan;
    if (launch.cost)
      entry["cost"] =
          describeCost(*launch.cost, launch.milliseconds, report.peaks);
    launches.push_back(std::move(entry));
  }
  nlohmann::json document{{"format", "uta-profile"},
                          {"version", 1},
                          {"device", report.device},
                          {"launches", std::move(launches)},
                          {"total_milliseconds", report.totalMilliseconds},
                          {"runs", report.runs}};
  return dumpJson(document);
}

Status uta::runtime::writeProfileJson(const std::string &path,
                                      const ProfileReport &report) {
  return writeText(path, formatProfileJson(report));
}
