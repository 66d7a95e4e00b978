//===- Profile.cpp - uta-run's per-launch profile report ------------------===//

#include "tools/uta-run/Profile.h"

#include "runtime/core/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

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

/// "; 12.3 TFLOP/s tf32, 0.41 TFLOP/s simt, 1830 GB/s" for `cost` done in
/// `milliseconds`; empty where that time is zero.
std::string formatRates(const LaunchDesc::Cost &cost, double milliseconds) {
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

nlohmann::json describeCost(const LaunchDesc::Cost &cost, double milliseconds) {
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
  return described;
}

} // namespace

std::string uta::runtime::formatProfile(const ProfileReport &report) {
  std::string text = "device: " + report.device + "\n";
  char buffer[512];
  LaunchDesc::Cost total;
  bool everyCost = true;
  for (const LaunchProfile &launch : report.launches) {
    std::snprintf(buffer, sizeof buffer,
                  "launch %zu: %s: %.4f ms (median of %zu)", launch.launch,
                  launch.kernel.c_str(), launch.milliseconds, launch.runs);
    text += buffer;
    if (launch.cost) {
      text += formatRates(*launch.cost, launch.milliseconds);
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
  if (everyCost && !report.launches.empty())
    text += formatRates(total, report.totalMilliseconds);
  return text + "\n";
}

Status uta::runtime::writeProfileJson(const std::string &path,
                                      const ProfileReport &report) {
  nlohmann::json launches = nlohmann::json::array();
  for (const LaunchProfile &launch : report.launches) {
    nlohmann::json entry{{"launch", launch.launch},
                         {"kernel", launch.kernel},
                         {"milliseconds", launch.milliseconds},
                         {"runs", launch.runs}};
    if (launch.cost)
      entry["cost"] = describeCost(*launch.cost, launch.milliseconds);
    launches.push_back(std::move(entry));
  }
  nlohmann::json document{{"format", "uta-profile"},
                          {"version", 1},
                          {"device", report.device},
                          {"launches", std::move(launches)},
                          {"total_milliseconds", report.totalMilliseconds},
                          {"runs", report.runs}};
  // (Kernel names and device descriptions are not always UTF-8: replaced,
  // never thrown over.)
  std::string text =
      document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  return writeFileAtomically(
      path, {std::as_bytes(std::span(text.data(), text.size()))});
}
