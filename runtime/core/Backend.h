//===- Backend.h - What a GPU backend offers the executor -------*- C++ -*-===//
//
// The executor (Executor.h) runs a manifest on any backend through this small
// interface: the device's limits (which the executor checks every launch
// against before loading, LaunchCheck.h), device buffers, loading a module
// for a manifest, and running the manifest's whole launch sequence at once.
// Running the sequence as one call (rather than one launch at a time) lets
// the CUDA backend put every launch on one stream, and lets a Vulkan backend
// record one command buffer with the descriptor sets its manifest names.
//
// A backend owns its device memory and its loaded modules; it must outlive
// every Executable and DeviceBuffer it has handed out.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_BACKEND_H
#define UTA_RUNTIME_CORE_BACKEND_H

#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace uta::runtime {

/// How to open a backend.
struct BackendOptions {
  /// Which device (--device=N).
  int device = 0;
};

/// A device allocation. `handle` means something only to the backend that
/// made it (a CUdeviceptr for CUDA); `bytes` is the size asked for.
struct DeviceBuffer {
  uint64_t handle = 0;
  uint64_t bytes = 0;
};

/// A module loaded for one manifest, its kernels resolved.
class Executable {
public:
  virtual ~Executable() = default;
};

/// What the device allows one launch and one kernel. The executor checks
/// every launch of a manifest against these before the module is loaded
/// (LaunchCheck.h), so a launch the device cannot run is an error that
/// names it, never a failed or undefined launch.
struct DeviceLimits {
  /// The largest grid (CUDA) or workgroup count (Vulkan), per dimension.
  std::array<uint64_t, 3> maxGrid = {0, 0, 0};
  /// The largest block (CUDA) or workgroup size (Vulkan), per dimension.
  std::array<uint64_t, 3> maxBlock = {0, 0, 0};
  /// The most threads (invocations) in one block.
  uint64_t maxThreadsPerBlock = 0;
  /// The most dynamic shared memory one launch may ask for (CUDA: the
  /// opt-in maximum per block; Vulkan kernels have none: 0).
  uint64_t maxDynamicSharedBytes = 0;
  /// The most arguments (parameters, bindings) one kernel may take; on CUDA
  /// in 8-byte parameter slots, of which a tensor map takes 16.
  uint64_t maxKernelArguments = 0;
  /// The largest buffer a kernel argument may bind.
  uint64_t maxBufferBytes = 0;
};

/// The GPU time of one launch of a run.
struct KernelTiming {
  /// Position in Manifest::launches.
  size_t launch = 0;
  /// The launched kernel's name.
  std::string kernel;
  double milliseconds = 0.0;
};

class Backend {
public:
  virtual ~Backend() = default;

  /// "cuda", "vulkan".
  virtual const char *name() const = 0;
  /// One line about the device, e.g. "NVIDIA H100 80GB HBM3, sm_90".
  virtual std::string deviceDescription() const = 0;
  /// What the device allows a launch.
  virtual DeviceLimits limits() const = 0;

  /// A buffer of at least `bytes` bytes, aligned to `alignment` (a power of
  /// two). Zero bytes is allowed.
  virtual Expected<DeviceBuffer> allocate(uint64_t bytes,
                                          uint64_t alignment) = 0;
  /// Gives a buffer back; the backend may keep it for reuse.
  virtual void release(DeviceBuffer buffer) = 0;
  /// Copies host bytes into the start of `buffer` and waits for the copy.
  virtual Status upload(DeviceBuffer buffer,
                        std::span<const std::byte> data) = 0;
  /// Copies the start of `buffer` into host bytes and waits for the copy.
  virtual Status download(DeviceBuffer buffer, std::span<std::byte> data) = 0;

  /// Loads `image` (the file that `manifest.module` names) and resolves every
  /// kernel's entry point. Fails with InvalidInput when the manifest's target
  /// is not one this backend runs, or the device cannot run it; a JIT failure
  /// carries the compiler's log.
  virtual Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte> image) = 0;

  /// Runs the manifest's launches in order, `buffers[i]` being the buffer of
  /// `manifest.buffers[i]` for the manifest `executable` was loaded from, and
  /// waits until they finished. With `timings`, appends each launch's GPU
  /// time, from the end of the launch before it (the run's start for the
  /// first), so the launches' times add up to the run's.
  virtual Status run(Executable &executable,
                     std::span<const DeviceBuffer> buffers,
                     std::vector<KernelTiming> *timings) = 0;

  /// Whether the backend addresses buffers by device pointer, so that
  /// `handle + offset` is a buffer inside another (how a workspace holds the
  /// intermediates, WorkspacePlan.h).
  virtual bool addressesBuffersByPointer() const { return false; }
  /// Whether runOnStream queues on a caller's stream (such a backend
  /// addresses buffers by pointer: the caller's workspace holds the
  /// intermediates).
  virtual bool runsOnCallerStreams() const { return false; }
  /// Queues the manifest's launches, as run() does, on the caller's
  /// `stream` (a CUstream for CUDA) and returns without waiting for them:
  /// the caller orders its inputs before and its uses of the results after
  /// on that stream, and keeps every buffer alive until the launches ran.
  virtual Status runOnStream(Executable &executable,
                             std::span<const DeviceBuffer> buffers,
                             uint64_t stream) {
    (void)executable, (void)buffers, (void)stream;
    return Status::error(ErrorCode::InvalidInput,
                         std::string(name()) +
                             " runs on no caller's stream (cuda only)");
  }
};

/// Device buffers released together, when this goes out of scope, to the
/// backend that allocated them: the buffers one run allocates, or those a
/// series of runs keeps on the device.
class DeviceBufferGuard {
public:
  explicit DeviceBufferGuard(Backend &backend) : backend_(backend) {}
  ~DeviceBufferGuard() {
    for (const DeviceBuffer &buffer : buffers_)
      backend_.release(buffer);
  }
  DeviceBufferGuard(const DeviceBufferGuard &) = delete;
  DeviceBufferGuard &operator=(const DeviceBufferGuard &) = delete;

  /// A new buffer of `desc`'s size and alignment, released with the others.
  Expected<DeviceBuffer> allocate(const BufferDesc &desc) {
    Expected<DeviceBuffer> buffer =
        backend_.allocate(desc.bytes, desc.alignment);
    if (buffer)
      buffers_.push_back(*buffer);
    return buffer;
  }

private:
  Backend &backend_;
  std::vector<DeviceBuffer> buffers_;
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_BACKEND_H
