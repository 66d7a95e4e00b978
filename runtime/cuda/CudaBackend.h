//===- CudaBackend.h - Runs PTX modules through the CUDA driver -*- C++ -*-===//
//
// The CUDA implementation of Backend: the device's primary context, one
// non-blocking stream that carries every copy and launch, a caching memory
// pool, modules JIT-compiled from PTX with cuModuleLoadDataEx (the compiler's
// error log comes back in the Status), and events between the launches when
// timings are asked for.
//
// Thread-safe: any number of threads may allocate, copy, load and run at
// once (each call makes the context current on the calling thread). The one
// stream is the backend's queue: a mutex makes each copy, and each run with
// its launches and the synchronization that ends it, one submission, so
// runs from many threads take turns on the GPU and never see each other's
// half-finished work. The memory pool has a lock of its own.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CUDA_CUDABACKEND_H
#define UTA_RUNTIME_CUDA_CUDABACKEND_H

#include "runtime/core/Backend.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/cuda/MemoryPool.h"

#include <memory>
#include <mutex>
#include <string>

namespace uta::runtime::cuda {

/// Whether PTX written for `moduleSm` ("80" .. "90", or "90a") runs on a
/// device of compute capability `computeCapability` (90 for sm_90): plain
/// PTX runs on its architecture and newer ones, "90a" (architecture-
/// specific features such as wgmma) on sm_90 only.
bool isModuleRunnableOn(const std::string &moduleSm, int computeCapability);

class CudaBackend final : public Backend {
public:
  /// Opens the driver (CudaDriver::open(library)) and device
  /// `options.device`. Fails with Unavailable, in one line starting "the
  /// cuda backend is not available here: ", when there is no driver or
  /// device; with InvalidInput when the device index is out of range.
  static Expected<std::unique_ptr<CudaBackend>>
  create(const BackendOptions &options,
         const char *library = CudaDriver::kDefaultLibrary);
  ~CudaBackend() override;

  const char *name() const override { return "cuda"; }
  std::string deviceDescription() const override;
  /// The device's attributes (grid, block and thread maxima, the opt-in
  /// shared memory per block); 4 KiB of parameters per kernel before driver
  /// 12.1, 32764 bytes from it, in 8-byte slots; no limit on one buffer
  /// but the memory itself (cuMemAlloc fails cleanly).
  DeviceLimits limits() const override { return limits_; }

  Expected<DeviceBuffer> allocate(uint64_t bytes, uint64_t alignment) override;
  void release(DeviceBuffer buffer) override;
  Status upload(DeviceBuffer buffer, std::span<const std::byte> data) override;
  Status download(DeviceBuffer buffer, std::span<std::byte> data) override;

  Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte> image) override;
  Status run(Executable &executable, std::span<const DeviceBuffer> buffers,
             std::vector<KernelTiming> *timings) override;
  bool addressesBuffersByPointer() const override { return true; }
  bool runsOnCallerStreams() const override { return true; }
  /// Queues the launches on `stream`, a CUstream of the primary context,
  /// and returns without waiting; a fault inside a kernel surfaces at the
  /// caller's next synchronisation.
  Status runOnStream(Executable &executable,
                     std::span<const DeviceBuffer> buffers,
                     uint64_t stream) override;

  /// Compute capability as a number: 90 for sm_90.
  int computeCapability() const { return ccMajor_ * 10 + ccMinor_; }
  /// The JIT compiler's info log of the last load() (registers, spills).
  std::string jitInfoLog() const;
  MemoryPool::Stats poolStats() const { return pool_->stats(); }
  const CudaDriver &driver() const { return *driver_; }
  /// The one stream that carries every copy and launch.
  CUstream stream() const { return stream_; }

private:
  CudaBackend() = default;
  /// Makes the device's primary context current on this thread.
  Status makeCurrent() const;
  /// Fills limits_ from the device's attributes.
  Status queryLimits();
  /// Queues a write of the whole cache-flush buffer (allocated on first
  /// use) on stream_; caller holds streamMutex_.
  Status queueCacheFlush();
  /// Queues `launch` of `function` with `params` on `stream`: through
  /// cuLaunchKernelEx with its cluster shape where it has one (load()
  /// checked that the driver has it), else cuLaunchKernel; caller holds
  /// streamMutex_.
  Status launchKernel(CUfunction function, const LaunchDesc &launch,
                      void **params, CUstream stream);
  /// Internal when `executable` is another backend's or `buffers` does not
  /// hold one buffer per manifest buffer.
  Status checkRun(const Executable &executable,
                  std::span<const DeviceBuffer> buffers) const;
  /// Queues every launch of `executable` on `stream`; with `events` (one
  /// before the first launch and one after each), flushes the L2 first and
  /// records them.
  Status queueLaunches(Executable &executable,
                       std::span<const DeviceBuffer> buffers, CUstream stream,
                       const std::vector<CUevent> *events);
  /// Unavailable (with `launchAt`) where the device cannot hold the blocks
  /// of one of `launch`'s clusters of `function` at once (an MIG slice, an
  /// MPS client limited to few SMs), as cuOccupancyMaxActiveClusters says.
  Status checkClusterFits(CUfunction function, const LaunchDesc &launch,
                          const std::string &launchAt);

  std::shared_ptr<CudaDriver> driver_;
  int ordinal_ = 0;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  std::unique_ptr<MemoryPool> pool_;
  std::string deviceName_;
  int ccMajor_ = 0, ccMinor_ = 0;
  int l2Bytes_ = 0;
  DeviceLimits limits_;
  /// Written before each timed launch (guarded by streamMutex_).
  DeviceBuffer cacheFlush_;
  /// Held for each submission to stream_, up to its synchronization.
  std::mutex streamMutex_;
  mutable std::mutex logMutex_;
  std::string jitInfoLog_; // guarded by logMutex_
};

/// CudaBackend::create as a plain Backend, for backend tables.
Expected<std::unique_ptr<Backend>>
createCudaBackend(const BackendOptions &options);

} // namespace uta::runtime::cuda

#endif // UTA_RUNTIME_CUDA_CUDABACKEND_H
