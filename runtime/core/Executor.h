//===- Executor.h - Runs a manifest's launches on a backend -----*- C++ -*-===//
//
// The executor is the backend-independent half of running a compiled graph:
// it loads the module that a manifest names, keeps the constant buffers on
// the device, and for each run allocates the argument, result and
// intermediate buffers, uploads the arguments, fills results and
// intermediates with NaN (Compare.h's poisonWithNaN, so an element no kernel
// wrote shows up as NaN rather than as a plausible stale value), runs the
// launch sequence and downloads the results.
//
// Thread safety: an Executor's run methods are const and may be called from
// many threads at once when its backend is thread-safe (the CUDA and Vulkan
// backends are): each run has its own buffers; the constants are only read.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_EXECUTOR_H
#define UTA_RUNTIME_CORE_EXECUTOR_H

#include "runtime/core/Backend.h"
#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"
#include "runtime/core/WorkspacePlan.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace uta::runtime {

/// A tensor in host memory, in its element type's storage: float for f32,
/// raw 16-bit patterns for f16 and bf16. C order.
struct HostTensor {
  ElementType type = ElementType::kF32;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;

  uint64_t numElements() const;
  /// The elements, widened exactly to float32.
  std::vector<float> toFloat32() const;
  /// A tensor of `type` from float32 values (rounded to nearest even for
  /// f16 and bf16). `values` must hold exactly the shape's element count.
  static HostTensor fromFloat32(ElementType type, std::vector<int64_t> shape,
                                std::span<const float> values);
};

/// "f32 [4, 8]".
std::string describeTensorType(ElementType type,
                               const std::vector<int64_t> &shape);

struct RunOptions {
  /// Measure each launch's GPU time.
  bool profile = false;
  /// Fill results and intermediates with NaN before the launches.
  bool poison = true;
  /// runDevice on a backend that runsOnCallerStreams(): the caller's
  /// stream to queue the launches on (0 is CUDA's legacy default stream),
  /// without waiting for them (no poisoning, no timings: both need a wait).
  std::optional<uint64_t> callerStream;
  /// With callerStream: the caller's buffer of at least workspaceBytes()
  /// that holds the intermediates, aligned to workspaceAlignment(). A run
  /// that does not wait cannot hand pool buffers back, so it takes none.
  DeviceBuffer workspace;
};

struct RunOutput {
  /// In result order.
  std::vector<HostTensor> results;
  /// One per launch, with RunOptions::profile.
  std::vector<KernelTiming> timings;
};

class Executor {
public:
  /// Reads the module that `manifest` names (next to the manifest) and loads
  /// it on `backend`, which must outlive the executor. The launches are
  /// checked against `backend.limits()` first (LaunchCheck.h), so a launch
  /// the device cannot run is refused before the backend sees the module.
  static Expected<Executor> load(Backend &backend, Manifest manifest);
  /// Same, with the module's bytes at hand.
  static Expected<Executor> load(Backend &backend, Manifest manifest,
                                 std::span<const std::byte> image);

  Executor(Executor &&other) noexcept;
  Executor &operator=(Executor &&other) noexcept;
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;
  ~Executor();

  const Manifest &manifest() const { return manifest_; }
  /// The bytes of device memory a run on a caller's stream needs for the
  /// intermediates (each at its alignment; those not live at the same
  /// launch share bytes, WorkspacePlan.h), and the alignment of its start.
  uint64_t workspaceBytes() const { return workspace_.bytes; }
  uint64_t workspaceAlignment() const { return workspace_.alignment; }

  /// Checks `arguments` against the manifest (count, dtype, shape; errors
  /// name the argument), then runs the graph once.
  Expected<RunOutput> run(std::span<const HostTensor> arguments,
                          const RunOptions &options = {}) const;

  /// Runs with arguments and results in host memory the caller owns:
  /// `arguments[i]` holds argument i's bytes and `results[i]` receives
  /// result i's, each exactly the manifest's size (dtypes and shapes are the
  /// caller's to check). With `timings`, appends each launch's time.
  Status runHost(std::span<const std::span<const std::byte>> arguments,
                 std::span<const std::span<std::byte>> results,
                 const RunOptions &options = {},
                 std::vector<KernelTiming> *timings = nullptr) const;

  /// Runs on buffers of this executor's backend that the caller owns:
  /// `arguments[i]` holds argument i and result i is written to
  /// `results[i]`, each at least the manifest's size; a result may not be an
  /// argument's buffer. Every result must be a buffer of role result listed
  /// once (as the compiler writes them). Only intermediates are allocated,
  /// or placed in the caller's workspace (RunOptions::callerStream).
  Status runDevice(std::span<const DeviceBuffer> arguments,
                   std::span<const DeviceBuffer> results,
                   const RunOptions &options = {},
                   std::vector<KernelTiming> *timings = nullptr) const;

  Backend &backend() const { return *backend_; }

private:
  Executor(Backend &backend, Manifest manifest);
  void releaseConstants();
  /// Whether a run allocates one workspace for its intermediates, each at
  /// its planned offset or in the result that holds it (WorkspacePlan.h),
  /// rather than one buffer each: on a backend that addresses buffers by
  /// pointer. Poisoning then fills each intermediate's bytes before the
  /// launches, so one that shares bytes with an earlier intermediate starts
  /// with that one's values, not NaN; a result that holds an intermediate
  /// holds its values until the launch that writes the result.
  bool sharesWorkspace() const;
  /// Poisons what the options say and runs the launches on `buffers` (one
  /// per manifest buffer).
  Status launch(std::span<const DeviceBuffer> buffers,
                const RunOptions &options,
                std::vector<KernelTiming> *timings) const;
  /// runDevice's rest with options.callerStream: the intermediates placed
  /// in the caller's workspace, the launches queued on its stream.
  Status launchOnCallerStream(std::vector<DeviceBuffer> &buffers,
                              const RunOptions &options,
                              std::vector<KernelTiming> *timings) const;

  Backend *backend_;
  Manifest manifest_;
  std::unique_ptr<Executable> executable_;
  /// Per manifest buffer: the resident constant, or an empty handle.
  std::vector<DeviceBuffer> constants_;
  std::vector<bool> hasConstant_;
  /// Where each intermediate lives when a run shares one workspace.
  WorkspacePlan workspace_;
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_EXECUTOR_H
