//===- uta-run.cpp - Runs a compiled graph without the compiler -----------===//
//
// uta-run OUT.json --backend=cuda [--inputs=...] [--seed=N] [--save=DIR]
//                  [--profile] [--device=N] [--expect=DIR]
//
// The runtime-only runner (docs/runtime.md): it links runtime/ alone (no
// MLIR or LLVM), so it starts wherever a GPU driver is installed. Everything
// that can be checked on the host (options, manifest, module file, input
// files, expected outputs) is checked before the backend is opened, so bad
// input gives exit 1 even on a machine without a GPU; a missing GPU gives
// exit 3.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Profile.h"
#include "tools/uta-run/Options.h"

#include "runtime/core/Backend.h"
#include "runtime/core/Compare.h"
#include "runtime/core/Executor.h"
#include "runtime/core/Manifest.h"
#include "runtime/core/Npy.h"
#include "runtime/core/Random.h"
#include "runtime/core/RunIO.h"

#ifdef UTA_HAVE_CUDA_BACKEND
#include "runtime/cuda/CudaBackend.h"
#endif
#ifdef UTA_HAVE_VULKAN_BACKEND
#include "runtime/vulkan/VulkanBackend.h"
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace uta::runtime;

namespace {

//===----------------------------------------------------------------------===//
// The backends
//===----------------------------------------------------------------------===//

using BackendFactory =
    Expected<std::unique_ptr<Backend>> (*)(const BackendOptions &);

/// The backends uta-run knows. One that is not built here has no factory
/// and says why; adding one is one line.
struct BackendEntry {
  const char *name;
  /// The manifest target it runs.
  ModuleTarget target;
  BackendFactory create;
  const char *notBuilt;
};

constexpr BackendEntry kBackends[] = {
#ifdef UTA_HAVE_CUDA_BACKEND
    {"cuda", ModuleTarget::kPtx, &cuda::createCudaBackend, nullptr},
#else
    {"cuda", ModuleTarget::kPtx, nullptr,
     "the cuda backend is not built (cuda.h was not found when uta-run was "
     "configured)"},
#endif
#ifdef UTA_HAVE_VULKAN_BACKEND
    {"vulkan", ModuleTarget::kSpirv, &vulkan::createVulkanBackend, nullptr},
#else
    {"vulkan", ModuleTarget::kSpirv, nullptr,
     "the vulkan backend is not built (vulkan.h was not found when uta-run "
     "was configured)"},
#endif
};

Expected<const BackendEntry *> findBackend(const std::string &name) {
  std::string known;
  for (const BackendEntry &entry : kBackends) {
    if (name == entry.name)
      return &entry;
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  return Status::error(ErrorCode::InvalidInput,
                       "--backend: unknown backend '" + name +
                           "' (expected one of " + known + ")");
}

Expected<const BackendEntry *> backendForTarget(ModuleTarget target) {
  for (const BackendEntry &entry : kBackends)
    if (entry.target == target)
      return &entry;
  return Status::error(ErrorCode::InvalidInput,
                       std::string("no backend runs ") +
                           moduleTargetName(target) + " modules");
}

Expected<std::unique_ptr<Backend>> openBackend(const BackendEntry &entry,
                                               int device) {
  if (!entry.create)
    return Status::error(ErrorCode::Unavailable, entry.notBuilt);
  Expected<std::unique_ptr<Backend>> backend =
      entry.create(BackendOptions{device});
  if (!backend && backend.status().code() == ErrorCode::InvalidInput)
    return Status::error(ErrorCode::InvalidInput,
                         "--device=" + std::to_string(device) + ": " +
                             backend.status().message());
  return backend;
}

//===----------------------------------------------------------------------===//
// Inputs and outputs
//===----------------------------------------------------------------------===//

TensorSpec specOf(const BufferDesc &desc) { return {desc.type, desc.shape}; }

/// The reference outputs of --expect, checked against the result shapes.
Expected<std::vector<std::vector<double>>>
readExpected(const std::string &dir, const Manifest &manifest) {
  std::vector<std::vector<double>> expected;
  std::vector<size_t> results = manifest.resultBuffers();
  for (size_t i = 0; i < results.size(); ++i) {
    Expected<std::vector<double>> values =
        readSavedResult(dir, i, manifest.buffers[results[i]].shape);
    if (!values)
      return Status::error(ErrorCode::InvalidInput,
                           "--expect: " + values.status().message());
    expected.push_back(std::move(*values));
  }
  return expected;
}

double defaultTolerance(ElementType type) {
  // The manifest does not say whether the graph reduces, so f32 results get
  // the looser bound of graphs with reductions.
  switch (type) {
  case ElementType::kF32:
    return getDefaultTolerance(CheckPrecision::kF32, /*hasReductions=*/true);
  case ElementType::kF16:
    return getDefaultTolerance(CheckPrecision::kF16, true);
  case ElementType::kBF16:
    return getDefaultTolerance(CheckPrecision::kBF16, true);
  }
  return 0;
}

/// "result0: f32 [4, 8], min -1.5 max 2.25 mean 0.125, 0 non-finite".
std::string summarize(size_t index, const HostTensor &result) {
  std::vector<float> values = result.toFloat32();
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  size_t finite = 0;
  for (float v : values) {
    if (!std::isfinite(v))
      continue;
    ++finite;
    lo = std::min(lo, double(v));
    hi = std::max(hi, double(v));
    sum += v;
  }
  char stats[160] = "no finite elements";
  if (finite)
    std::snprintf(stats, sizeof(stats), "min %.6g max %.6g mean %.6g", lo, hi,
                  sum / double(finite));
  return "result" + std::to_string(index) + ": " +
         describeTensorType(result.type, result.shape) + ", " + stats + ", " +
         std::to_string(values.size() - finite) + " non-finite";
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int exitCodeOf(const Status &status) {
  return status.code() == ErrorCode::Unavailable ? 3 : 1;
}

/// Runs the graph `runs` more times on `arguments`, uploaded once to
/// buffers that stay on the device, and passes each run's launch times to
/// `addTimes`. Nothing is read back and the results are not poisoned: these
/// runs are timed, not checked.
Status repeatOnDevice(const Executor &executor,
                      std::span<const HostTensor> arguments, unsigned runs,
                      bool profile,
                      const std::function<void(const RunOutput &)> &addTimes) {
  // Without repeats (the default), nothing to upload.
  if (runs == 0)
    return Status();
  const Manifest &manifest = executor.manifest();
  Backend &backend = executor.backend();
  DeviceBufferGuard resident(backend);
  std::vector<DeviceBuffer> argumentBuffers, resultBuffers;
  std::vector<size_t> argumentPositions = manifest.argumentBuffers();
  for (size_t a = 0; a < arguments.size(); ++a) {
    Expected<DeviceBuffer> buffer =
        resident.allocate(manifest.buffers[argumentPositions[a]]);
    if (!buffer)
      return buffer.status();
    UTA_TRY(backend.upload(*buffer, arguments[a].data));
    argumentBuffers.push_back(*buffer);
  }
  for (size_t position : manifest.resultBuffers()) {
    Expected<DeviceBuffer> buffer =
        resident.allocate(manifest.buffers[position]);
    if (!buffer)
      return buffer.status();
    resultBuffers.push_back(*buffer);
  }
  RunOptions options;
  options.profile = profile;
  options.poison = false;
  for (unsigned run = 0; run < runs; ++run) {
    RunOutput output;
    UTA_TRY(executor.runDevice(argumentBuffers, resultBuffers, options,
                               profile ? &output.timings : nullptr));
    addTimes(output);
  }
  return Status();
}

int fail(const Status &status) {
  std::fprintf(stderr, "uta-run: %s\n", status.message().c_str());
  return exitCodeOf(status);
}

int printDevice(const UTARunOptions &options) {
  Expected<const BackendEntry *> entry =
      findBackend(options.backend.empty() ? "cuda" : options.backend);
  if (!entry)
    return fail(entry.status());
  Expected<std::unique_ptr<Backend>> backend =
      openBackend(**entry, options.device);
  if (!backend)
    return fail(backend.status());
  std::printf("%s: %s\n", (*backend)->name(),
              (*backend)->deviceDescription().c_str());
  return 0;
}

/// `bytes` in KiB below a MiB, else in MiB, one decimal.
std::string formatBytes(uint64_t bytes) {
  char text[32];
  if (bytes < (uint64_t(1) << 20))
    std::snprintf(text, sizeof(text), "%.1f KiB", bytes / 1024.0);
  else
    std::snprintf(text, sizeof(text), "%.1f MiB", bytes / 1048576.0);
  return text;
}

int runUTARun(int argc, char **argv) {
  Expected<UTARunOptions> parsed = parseUTARunOptions(argc, argv);
  if (!parsed)
    return fail(parsed.status());
  const UTARunOptions &options = *parsed;
  if (options.help) {
    std::fputs(getUTARunHelp(), stdout);
    return 0;
  }
  if (options.printDevice)
    return printDevice(options);

  // Host-side checks first: bad input is exit 1 even without a GPU.
  Expected<Manifest> manifest = readManifest(options.manifest);
  if (!manifest)
    return fail(manifest.status());
  Expected<const BackendEntry *> entry =
      options.backend.empty() ? backendForTarget(manifest->target)
                              : findBackend(options.backend);
  if (!entry)
    return fail(entry.status());
  if ((*entry)->target != manifest->target)
    return fail(Status::error(
        ErrorCode::InvalidInput,
        options.manifest + ": the " + (*entry)->name + " backend runs " +
            moduleTargetName((*entry)->target) + " modules, this one is " +
            moduleTargetName(manifest->target)));
  if (!(*entry)->create)
    return fail(Status::error(ErrorCode::Unavailable, (*entry)->notBuilt));
  Expected<std::vector<std::byte>> image = readModule(*manifest);
  if (!image)
    return fail(Status::error(ErrorCode::InvalidInput,
                              options.manifest +
                                  ": module: " + image.status().message()));

  std::vector<size_t> argumentBuffers = manifest->argumentBuffers();
  std::vector<HostTensor> arguments;
  if (!options.inputs.empty()) {
    if (options.inputs.size() != argumentBuffers.size())
      return fail(Status::error(
          ErrorCode::InvalidInput,
          "--inputs: " + manifest->entry + " takes " +
              std::to_string(argumentBuffers.size()) + " arguments, got " +
              std::to_string(options.inputs.size()) + " files"));
    for (size_t i = 0; i < argumentBuffers.size(); ++i) {
      Expected<HostTensor> argument = readArgument(
          options.inputs[i], specOf(manifest->buffers[argumentBuffers[i]]), i);
      if (!argument)
        return fail(argument.status());
      arguments.push_back(std::move(*argument));
    }
  } else {
    for (size_t i = 0; i < argumentBuffers.size(); ++i)
      arguments.push_back(
          seededArgument(options.seed.value_or(0),
                         specOf(manifest->buffers[argumentBuffers[i]]), i));
  }

  std::vector<std::vector<double>> expected;
  if (!options.expectDir.empty()) {
    Expected<std::vector<std::vector<double>>> read =
        readExpected(options.expectDir, *manifest);
    if (!read)
      return fail(read.status());
    expected = std::move(*read);
  }

  // Now the device.
  Expected<std::unique_ptr<Backend>> backend =
      openBackend(**entry, options.device);
  if (!backend)
    return fail(backend.status());
  Expected<Executor> executor =
      Executor::load(**backend, std::move(*manifest), *image);
  if (!executor)
    return fail(executor.status());
  // --repeat runs the graph again on the same arguments, kept on the
  // device; the profile then reports each launch's median and the median of
  // the runs' totals (the launches' times add up to their run's), over the
  // runs after the first, which warms up, where there are any. The first
  // run's results are checked.
  Expected<RunOutput> output =
      executor->run(arguments, RunOptions{options.profile});
  if (!output)
    return fail(output.status());
  std::vector<std::vector<double>> launchTimes(output->timings.size());
  std::vector<double> runTotals;
  auto addTimes = [&](const RunOutput &run) {
    double total = 0;
    for (const KernelTiming &timing : run.timings) {
      launchTimes[timing.launch].push_back(timing.milliseconds);
      total += timing.milliseconds;
    }
    runTotals.push_back(total);
  };
  if (Status repeated = repeatOnDevice(*executor, arguments, options.repeat - 1,
                                       options.profile, addTimes);
      !repeated)
    return fail(repeated);
  if (runTotals.empty())
    addTimes(*output);

  if (options.profile) {
    ProfileReport report;
    report.device = (*backend)->deviceDescription();
    if (!options.peaks.empty()) {
      Expected<DevicePeaks> peaks = readDevicePeaks(options.peaks);
      if (!peaks)
        return fail(peaks.status());
      // Peaks of another kind of device would place nothing right.
      if (report.device.find(peaks->device) == std::string::npos)
        return fail(Status::error(
            ErrorCode::InvalidInput,
            options.peaks + ": peaks measured on '" + peaks->device +
                "', not on this device ('" + report.device + "')"));
      report.peaks = std::move(*peaks);
    }
    const std::vector<LaunchDesc> &launches = executor->manifest().launches;
    for (const KernelTiming &timing : output->timings) {
      std::vector<double> &times = launchTimes[timing.launch];
      LaunchProfile launch{
          timing.launch, timing.kernel, medianMilliseconds(times),
          times.size(),  std::nullopt,  /*plan=*/""};
      if (timing.launch < launches.size()) {
        launch.cost = launches[timing.launch].cost;
        if (launches[timing.launch].plan)
          launch.plan = launches[timing.launch].plan->row;
      }
      report.launches.push_back(std::move(launch));
    }
    report.totalMilliseconds = medianMilliseconds(runTotals);
    report.runs = runTotals.size();
    std::fputs(formatProfile(report).c_str(), stdout);
    // Backends that address buffers by pointer hold the intermediates in
    // one workspace.
    if (executor->backend().addressesBuffersByPointer()) {
      uint64_t intermediates = 0;
      for (const BufferDesc &desc : executor->manifest().buffers)
        if (desc.role == BufferRole::kIntermediate)
          intermediates += desc.bytes;
      std::printf("memory: %s of intermediates in a workspace of %s (those "
                  "not live at the same launch share bytes)\n",
                  formatBytes(intermediates).c_str(),
                  formatBytes(executor->workspaceBytes()).c_str());
    }
    if (!options.profileJson.empty())
      if (Status written = writeProfileJson(options.profileJson, report);
          !written)
        return fail(written);
    if (!options.trace.empty())
      if (Status written = writeProfileTrace(options.trace, report); !written)
        return fail(written);
  }

  bool checksPassed = true, referenceInvalid = false;
  for (size_t i = 0; i < output->results.size(); ++i) {
    const HostTensor &result = output->results[i];
    if (expected.empty()) {
      std::printf("%s\n", summarize(i, result).c_str());
      continue;
    }
    std::vector<float> values = result.toFloat32();
    Expected<Comparison> comparison = compareResult(
        "result" + std::to_string(i), values, expected[i], result.shape,
        options.tolerance.value_or(defaultTolerance(result.type)));
    if (!comparison)
      return fail(comparison.status());
    std::printf("%s\n", comparison->getReport().c_str());
    checksPassed &= comparison->passed();
    referenceInvalid |=
        comparison->verdict == Comparison::Verdict::kInvalidReference;
  }
  std::fflush(stdout);
  if (referenceInvalid)
    return fail(Status::error(ErrorCode::InvalidInput,
                              "--expect: the reference outputs in " +
                                  options.expectDir +
                                  " have non-finite elements"));
  if (!checksPassed) {
    std::fprintf(stderr, "uta-run: --expect: results differ from %s%s\n",
                 options.expectDir.c_str(),
                 options.saveDir.empty() ? "" : " (nothing saved)");
    return 2;
  }
  if (!options.saveDir.empty())
    if (Status status = saveResults(options.saveDir, output->results); !status)
      return fail(status);
  return 0;
}

} // namespace

int main(int argc, char **argv) { return runUTARun(argc, argv); }
