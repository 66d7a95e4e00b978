//===- Profile.cpp - Per-launch profile reports ---------------------------===//

#include "runtime/core/Profile.h"

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
    if (launch.cost)
      args["cost"] = describeCost(*launch.cost, launch.milliseconds);
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
  return writeText(path, dumpJson(document));
}
