//===- CudaBackend.cpp - Runs PTX modules through the CUDA driver ---------===//
//
// Kernel parameters are built from the manifest's argument list: each
// argument gets an 8-byte slot (a CUdeviceptr, or a scalar in its first bytes)
// and cuLaunchKernel gets pointers to the slots. Where the driver can say
// what a kernel takes (cuFuncGetParamInfo, CUDA 12.4+), the manifest's
// argument list is checked against it at load, because a wrong count or size
// would otherwise launch with garbage parameters. A tensor-map argument is
// a 128-byte descriptor of a buffer, encoded before each launch (the
// buffer's address is known only then) and passed by value.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaBackend.h"
#include "runtime/cuda/TensorMap.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>

using namespace uta::runtime;
using namespace uta::runtime::cuda;

/// Prefixes the message of an error, keeping its code.
static Status withContext(const std::string &context, const Status &status) {
  if (status.ok())
    return status;
  return Status::error(status.code(), context + ": " + status.message());
}

//===----------------------------------------------------------------------===//
// CudaExecutable
//===----------------------------------------------------------------------===//

namespace {

/// One kernel of a loaded module.
struct LoadedKernel {
  CUfunction function = nullptr;
  int maxThreadsPerBlock = 0;
};

/// The arguments of one launch, resolved.
struct LaunchArgs {
  /// Per argument: the position in Manifest::buffers for buffers, else -1.
  std::vector<int64_t> bufferPositions;
  /// Per argument: the slot's bytes for scalars (buffers are filled per run).
  std::vector<uint64_t> scalarSlots;
  /// The tensor-map arguments: which, the position of their buffer, and
  /// all of the encoding but the address.
  struct TensorMapArg {
    size_t argument;
    int64_t bufferPosition;
    TensorMapEncoding encoding;
  };
  std::vector<TensorMapArg> tensorMaps;
};

class CudaExecutable final : public Executable {
public:
  CudaExecutable(const CudaBackend *owner, std::shared_ptr<CudaDriver> driver)
      : owner(owner), driver(std::move(driver)) {}
  ~CudaExecutable() override {
    for (CUevent event : events)
      (void)driver->api().cuEventDestroy(event);
    if (module)
      (void)driver->api().cuModuleUnload(module);
  }

  const CudaBackend *owner;
  std::shared_ptr<CudaDriver> driver;
  CUmodule module = nullptr;
  std::string path;
  size_t numBuffers = 0;
  std::vector<LoadedKernel> kernels;
  std::vector<LaunchDesc> launches;
  /// Per launch.
  std::vector<LaunchArgs> launchArgs;
  /// Start and stop event per launch, made on the first timed run.
  std::vector<CUevent> events;
};

/// The parameter size the kernel ABI gives each manifest argument kind.
size_t parameterSize(KernelArg::Kind kind) {
  switch (kind) {
  case KernelArg::Kind::kBuffer:
  case KernelArg::Kind::kI64:
    return 8;
  case KernelArg::Kind::kI32:
  case KernelArg::Kind::kF32:
    return 4;
  case KernelArg::Kind::kTensorMap:
    return sizeof(CUtensorMap);
  }
  return 0;
}

/// `args` with their buffers as positions in `manifest.buffers` and their
/// scalars as parameter slots. The reader has resolved every buffer id.
LaunchArgs resolveLaunchArgs(const Manifest &manifest,
                             const std::map<int64_t, int64_t> &positionOfId,
                             const std::vector<KernelArg> &args) {
  LaunchArgs resolved;
  for (const KernelArg &arg : args) {
    uint64_t slot = 0;
    int64_t position = -1;
    switch (arg.kind) {
    case KernelArg::Kind::kBuffer:
      position = positionOfId.at(arg.buffer);
      break;
    case KernelArg::Kind::kTensorMap: {
      int64_t buffer = positionOfId.at(arg.buffer);
      resolved.tensorMaps.push_back(
          {resolved.scalarSlots.size(), buffer,
           describeTensorMap(manifest.buffers[buffer], arg)});
      break;
    }
    case KernelArg::Kind::kI32: {
      int32_t value = int32_t(arg.intValue);
      std::memcpy(&slot, &value, 4);
      break;
    }
    case KernelArg::Kind::kI64:
      std::memcpy(&slot, &arg.intValue, 8);
      break;
    case KernelArg::Kind::kF32:
      std::memcpy(&slot, &arg.floatValue, 4);
      break;
    }
    resolved.bufferPositions.push_back(position);
    resolved.scalarSlots.push_back(slot);
  }
  return resolved;
}

/// Joins a multi-line compiler log into one line.
std::string oneLine(const char *log) {
  std::string text;
  for (const char *c = log; *c; ++c)
    text += *c == '\n' ? "; " : std::string(1, *c);
  while (!text.empty() && (text.back() == ' ' || text.back() == ';'))
    text.pop_back();
  return text;
}

} // namespace

//===----------------------------------------------------------------------===//
// CudaBackend
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<CudaBackend>>
CudaBackend::create(const BackendOptions &options, const char *library) {
  auto unavailable = [](const std::string &why) {
    return Status::error(ErrorCode::Unavailable,
                         "the cuda backend is not available here: " + why);
  };
  Expected<std::shared_ptr<CudaDriver>> opened = CudaDriver::open(library);
  if (!opened)
    return unavailable(opened.status().message());
  std::unique_ptr<CudaBackend> backend(new CudaBackend());
  backend->driver_ = std::move(*opened);
  const CudaDriver &driver = *backend->driver_;

  int count = 0;
  if (Status status = UTA_CU(driver, cuDeviceGetCount, &count); !status)
    return unavailable(status.message());
  if (count == 0)
    return unavailable("no CUDA device");
  if (options.device < 0 || options.device >= count)
    return Status::error(ErrorCode::InvalidInput,
                         "device " + std::to_string(options.device) +
                             " does not exist (" + std::to_string(count) +
                             " cuda device" + (count == 1 ? "" : "s") +
                             " here, numbered from 0)");
  backend->ordinal_ = options.device;
  UTA_TRY(UTA_CU(driver, cuDeviceGet, &backend->device_, options.device));

  char name[256] = {};
  UTA_TRY(UTA_CU(driver, cuDeviceGetName, name, int(sizeof(name) - 1),
                 backend->device_));
  backend->deviceName_ = name;
  UTA_TRY(UTA_CU(driver, cuDeviceGetAttribute, &backend->ccMajor_,
                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                 backend->device_));
  UTA_TRY(UTA_CU(driver, cuDeviceGetAttribute, &backend->ccMinor_,
                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                 backend->device_));
  UTA_TRY(UTA_CU(driver, cuDeviceGetAttribute, &backend->l2Bytes_,
                 CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, backend->device_));
  UTA_TRY(backend->queryLimits());

  // CUDA 13 changed cuCtxCreate; the primary context is what the runtime API
  // uses too, so sharing the device with other libraries just works.
  UTA_TRY(UTA_CU(driver, cuDevicePrimaryCtxRetain, &backend->context_,
                 backend->device_));
  UTA_TRY(UTA_CU(driver, cuCtxSetCurrent, backend->context_));
  UTA_TRY(UTA_CU(driver, cuStreamCreate, &backend->stream_,
                 unsigned(CU_STREAM_NON_BLOCKING)));

  const CudaDriver *raw = backend->driver_.get();
  backend->pool_ = std::make_unique<MemoryPool>(
      [raw](uint64_t bytes) -> Expected<uint64_t> {
        CUdeviceptr address = 0;
        if (Status status = UTA_CU(*raw, cuMemAlloc, &address, size_t(bytes));
            !status)
          return Status::error(ErrorCode::Internal,
                               "allocating " + std::to_string(bytes) +
                                   " bytes: " + status.message());
        return uint64_t(address);
      },
      [raw](uint64_t address) {
        (void)raw->api().cuMemFree(CUdeviceptr(address));
      });
  return backend;
}

CudaBackend::~CudaBackend() {
  if (!context_)
    return;
  (void)driver_->api().cuCtxSetCurrent(context_);
  if (cacheFlush_.bytes)
    pool_->release(cacheFlush_.handle);
  pool_.reset();
  if (stream_)
    (void)driver_->api().cuStreamDestroy(stream_);
  (void)driver_->api().cuDevicePrimaryCtxRelease(device_);
}

Status CudaBackend::queryLimits() {
  auto attribute = [&](CUdevice_attribute which, uint64_t &out) -> Status {
    int value = 0;
    UTA_TRY(UTA_CU(*driver_, cuDeviceGetAttribute, &value, which, device_));
    out = uint64_t(std::max(value, 0));
    return Status();
  };
  static constexpr CUdevice_attribute kGrid[] = {
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  static constexpr CUdevice_attribute kBlock[] = {
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  for (int d = 0; d < 3; ++d) {
    UTA_TRY(attribute(kGrid[d], limits_.maxGrid[d]));
    UTA_TRY(attribute(kBlock[d], limits_.maxBlock[d]));
  }
  UTA_TRY(attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                    limits_.maxThreadsPerBlock));
  UTA_TRY(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                    limits_.maxDynamicSharedBytes));
  // Kernel parameters: 4 KiB, and 32764 bytes from driver 12.1 on (every
  // sm the manifests name is Volta or newer); one 8-byte slot an argument.
  uint64_t parameterBytes = driver_->version() >= 12010 ? 32764 : 4096;
  limits_.maxKernelArguments = parameterBytes / 8;
  limits_.maxBufferBytes = std::numeric_limits<uint64_t>::max();
  return Status();
}

Status CudaBackend::makeCurrent() const {
  return UTA_CU(*driver_, cuCtxSetCurrent, context_);
}

Status CudaBackend::queueCacheFlush() {
  if (!cacheFlush_.bytes) {
    // Twice the L2, so none of the previous run's data is left in it.
    uint64_t bytes =
        std::max<uint64_t>(2 * uint64_t(l2Bytes_), uint64_t(64) << 20);
    Expected<uint64_t> address = pool_->allocate(bytes);
    if (!address)
      return address.status();
    cacheFlush_ = DeviceBuffer{*address, bytes};
  }
  return UTA_CU(*driver_, cuMemsetD32Async, CUdeviceptr(cacheFlush_.handle), 0u,
                size_t(cacheFlush_.bytes / 4), stream_);
}

namespace {
/// cuLaunchKernelEx's configuration of a launch in clusters (`attribute`
/// holds the cluster shape, which `config` points to).
struct ClusterLaunchConfig {
  ClusterLaunchConfig(const LaunchDesc &launch, CUstream stream) {
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = (*launch.cluster)[0];
    attribute.value.clusterDim.y = (*launch.cluster)[1];
    attribute.value.clusterDim.z = (*launch.cluster)[2];
    config.gridDimX = launch.grid[0];
    config.gridDimY = launch.grid[1];
    config.gridDimZ = launch.grid[2];
    config.blockDimX = launch.block[0];
    config.blockDimY = launch.block[1];
    config.blockDimZ = launch.block[2];
    config.sharedMemBytes = launch.sharedBytes;
    config.hStream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  ClusterLaunchConfig(const ClusterLaunchConfig &) = delete;
  ClusterLaunchConfig &operator=(const ClusterLaunchConfig &) = delete;

  CUlaunchAttribute attribute{};
  CUlaunchConfig config{};
};
} // namespace

Status CudaBackend::launchKernel(CUfunction function, const LaunchDesc &launch,
                                 void **params, CUstream stream) {
  if (!launch.cluster)
    return UTA_CU(*driver_, cuLaunchKernel, function, launch.grid[0],
                  launch.grid[1], launch.grid[2], launch.block[0],
                  launch.block[1], launch.block[2], launch.sharedBytes, stream,
                  params, nullptr);
  // load() refused cluster launches where the driver lacks the entry point.
  ClusterLaunchConfig cluster(launch, stream);
  return UTA_CU(*driver_, cuLaunchKernelEx, &cluster.config, function, params,
                nullptr);
}

Status CudaBackend::checkClusterFits(CUfunction function,
                                     const LaunchDesc &launch,
                                     const std::string &launchAt) {
  // Drivers before CUDA 11.8 lack the query; their launch fails instead.
  if (!driver_->api().cuOccupancyMaxActiveClusters)
    return Status();
  ClusterLaunchConfig cluster(launch, stream_);
  int clusters = 0;
  UTA_TRY(withContext(launchAt, UTA_CU(*driver_, cuOccupancyMaxActiveClusters,
                                       &clusters, function, &cluster.config)));
  if (clusters > 0)
    return Status();
  const auto &shape = *launch.cluster;
  return Status::error(
      ErrorCode::Unavailable,
      launchAt + ": this device cannot run a cluster of " +
          std::to_string(uint64_t(shape[0]) * shape[1] * shape[2]) +
          " of its blocks at once (each " +
          std::to_string(uint64_t(launch.block[0]) * launch.block[1] *
                         launch.block[2]) +
          " threads and " + std::to_string(launch.sharedBytes) +
          " bytes of dynamic shared memory); a MIG slice or an MPS client "
          "limited to few SMs can cause this");
}

std::string CudaBackend::jitInfoLog() const {
  std::lock_guard<std::mutex> lock(logMutex_);
  return jitInfoLog_;
}

std::string CudaBackend::deviceDescription() const {
  int version = driver_->version();
  return deviceName_ + ", sm_" + std::to_string(ccMajor_) +
         std::to_string(ccMinor_) + ", device " + std::to_string(ordinal_) +
         ", driver " + std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

Expected<DeviceBuffer> CudaBackend::allocate(uint64_t bytes,
                                             uint64_t alignment) {
  UTA_TRY(makeCurrent());
  // cuMemAlloc(0) fails, so empty buffers still take the smallest block.
  Expected<uint64_t> address = pool_->allocate(std::max<uint64_t>(bytes, 1));
  if (!address)
    return address.status();
  if (alignment && *address % alignment) {
    pool_->release(*address);
    return Status::error(ErrorCode::Internal,
                         "cuda: device memory is not aligned to " +
                             std::to_string(alignment) + " bytes");
  }
  return DeviceBuffer{*address, bytes};
}

void CudaBackend::release(DeviceBuffer buffer) {
  pool_->release(buffer.handle);
}

Status CudaBackend::upload(DeviceBuffer buffer,
                           std::span<const std::byte> data) {
  if (data.size() > buffer.bytes)
    return Status::error(ErrorCode::Internal, "upload of " +
                                                  std::to_string(data.size()) +
                                                  " bytes into a buffer of " +
                                                  std::to_string(buffer.bytes));
  if (data.empty())
    return Status();
  UTA_TRY(makeCurrent());
  std::lock_guard<std::mutex> lock(streamMutex_);
  UTA_TRY(UTA_CU(*driver_, cuMemcpyHtoDAsync, CUdeviceptr(buffer.handle),
                 data.data(), data.size(), stream_));
  return UTA_CU(*driver_, cuStreamSynchronize, stream_);
}

Status CudaBackend::download(DeviceBuffer buffer, std::span<std::byte> data) {
  if (data.size() > buffer.bytes)
    return Status::error(ErrorCode::Internal, "download of " +
                                                  std::to_string(data.size()) +
                                                  " bytes from a buffer of " +
                                                  std::to_string(buffer.bytes));
  if (data.empty())
    return Status();
  UTA_TRY(makeCurrent());
  std::lock_guard<std::mutex> lock(streamMutex_);
  UTA_TRY(UTA_CU(*driver_, cuMemcpyDtoHAsync, data.data(),
                 CUdeviceptr(buffer.handle), data.size(), stream_));
  return UTA_CU(*driver_, cuStreamSynchronize, stream_);
}

bool uta::runtime::cuda::isModuleRunnableOn(const std::string &moduleSm,
                                            int computeCapability) {
  bool archSpecific = !moduleSm.empty() && moduleSm.back() == 'a';
  int sm = std::atoi(moduleSm.c_str());
  return archSpecific ? sm == computeCapability : sm <= computeCapability;
}

Expected<std::unique_ptr<Executable>>
CudaBackend::load(const Manifest &manifest, std::span<const std::byte> image) {
  const std::string &where =
      manifest.path.empty() ? manifest.module : manifest.path;
  if (manifest.target != ModuleTarget::kPtx)
    return Status::error(ErrorCode::InvalidInput,
                         where + ": the cuda backend runs ptx modules, not " +
                             moduleTargetName(manifest.target));
  // The module is fine; this device cannot run it: Unavailable (exit 3).
  if (!isModuleRunnableOn(manifest.sm, computeCapability()))
    return Status::error(
        ErrorCode::Unavailable,
        where + ": the module is compiled for sm_" + manifest.sm +
            (manifest.sm.back() == 'a' ? ", which runs on sm_90 devices only,"
                                       : "") +
            " but device " + std::to_string(ordinal_) + " (" + deviceName_ +
            ") is sm_" + std::to_string(computeCapability()));

  UTA_TRY(makeCurrent());
  auto executable = std::make_unique<CudaExecutable>(this, driver_);
  executable->path = where;
  executable->numBuffers = manifest.buffers.size();
  executable->launches = manifest.launches;

  // PTX is text and must end in a NUL; a cubin (ELF) goes in as it is.
  static constexpr char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  std::string text;
  const void *moduleData = image.data();
  if (image.size() < 4 || std::memcmp(image.data(), kElfMagic, 4) != 0) {
    text.assign(reinterpret_cast<const char *>(image.data()), image.size());
    moduleData = text.c_str();
  }

  constexpr size_t kLogBytes = 1 << 16;
  std::vector<char> errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUresult loaded = driver_->api().cuModuleLoadDataEx(
      &executable->module, moduleData, unsigned(std::size(options)), options,
      values);
  {
    std::lock_guard<std::mutex> lock(logMutex_);
    jitInfoLog_ = infoLog.data();
  }
  if (loaded != CUDA_SUCCESS) {
    std::string message =
        driver_->check(loaded, "cuModuleLoadDataEx").message();
    std::string log = oneLine(errorLog.data());
    if (!log.empty())
      message += "; JIT log: " + log;
    executable->module = nullptr;
    return Status::error(ErrorCode::InvalidInput, where + ": " + message);
  }

  std::map<int64_t, int64_t> positionOfId;
  for (size_t i = 0; i < manifest.buffers.size(); ++i)
    positionOfId[manifest.buffers[i].id] = int64_t(i);

  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelDesc &desc = manifest.kernels[k];
    std::string at = where + ": kernels[" + std::to_string(k) + "]";
    LoadedKernel kernel;
    if (Status status = UTA_CU(*driver_, cuModuleGetFunction, &kernel.function,
                               executable->module, desc.entryPoint.c_str());
        !status)
      return withContext(at + " (entry point \"" + desc.entryPoint + "\")",
                         status);
    if (Status status =
            UTA_CU(*driver_, cuFuncGetAttribute, &kernel.maxThreadsPerBlock,
                   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel.function);
        !status)
      return withContext(at, status);

    if (auto getParamInfo = driver_->api().cuFuncGetParamInfo) {
      // Counts the parameters (a bounded search: kernels take a few dozen).
      size_t count = 0, offset = 0, size = 0;
      bool known = true;
      for (; count < desc.args.size() + 4096; ++count) {
        CUresult info = getParamInfo(kernel.function, count, &offset, &size);
        // CUDA_ERROR_INVALID_VALUE means "no such parameter"; anything else
        // means the driver cannot tell, and the check is skipped.
        known = info == CUDA_SUCCESS || info == CUDA_ERROR_INVALID_VALUE;
        if (info != CUDA_SUCCESS)
          break;
        if (count < desc.args.size() &&
            size != parameterSize(desc.args[count].kind))
          return Status::error(
              ErrorCode::InvalidInput,
              at + ".args[" + std::to_string(count) + "]: entry point \"" +
                  desc.entryPoint + "\" takes a " + std::to_string(size) +
                  "-byte parameter here, not " +
                  std::to_string(parameterSize(desc.args[count].kind)));
      }
      if (known && count != desc.args.size())
        return Status::error(ErrorCode::InvalidInput,
                             at + ".args: entry point \"" + desc.entryPoint +
                                 "\" takes " + std::to_string(count) +
                                 " parameters, the manifest gives " +
                                 std::to_string(desc.args.size()));
    }

    for (const KernelArg &arg : desc.args)
      if (arg.kind == KernelArg::Kind::kTensorMap &&
          !driver_->api().cuTensorMapEncodeTiled)
        return Status::error(ErrorCode::Unavailable,
                             at + ": takes a tensor map, which this CUDA "
                                  "driver cannot encode "
                                  "(cuTensorMapEncodeTiled is missing)");

    // What only the compiled kernel knows: its own thread limit (registers
    // can make it lower than the device's) and its static shared memory,
    // which counts against the same per-block maximum as the dynamic.
    int staticShared = 0;
    if (Status status =
            UTA_CU(*driver_, cuFuncGetAttribute, &staticShared,
                   CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel.function);
        !status)
      return withContext(at, status);
    auto launchWhere = [&](size_t l) {
      return where + ": launches[" + std::to_string(l) + "] (" +
             manifest.launches[l].kernel + ")";
    };
    uint32_t shared = 0;
    for (size_t l = 0; l < manifest.launches.size(); ++l) {
      const LaunchDesc &launch = manifest.launches[l];
      if (launch.kernelIndex != k)
        continue;
      std::string launchAt = launchWhere(l);
      if (launch.cluster && !driver_->api().cuLaunchKernelEx)
        return Status::error(ErrorCode::Unavailable,
                             launchAt + ": launches thread block clusters, "
                                        "which this CUDA driver cannot "
                                        "(cuLaunchKernelEx is missing; it "
                                        "came with CUDA 12.0)");
      uint64_t threads =
          uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
      if (threads > uint64_t(kernel.maxThreadsPerBlock))
        return Status::error(
            ErrorCode::InvalidInput,
            launchAt + ": a block of " + std::to_string(threads) +
                " threads is more than the kernel's limit of " +
                std::to_string(kernel.maxThreadsPerBlock));
      uint64_t perBlock =
          uint64_t(std::max(staticShared, 0)) + launch.sharedBytes;
      if (perBlock > limits_.maxDynamicSharedBytes)
        return Status::error(
            ErrorCode::InvalidInput,
            launchAt + ": " + std::to_string(staticShared) +
                " bytes of static and " + std::to_string(launch.sharedBytes) +
                " of dynamic shared memory, more than the device's " +
                std::to_string(limits_.maxDynamicSharedBytes) + " per block");
      shared = std::max(shared, launch.sharedBytes);
    }
    // Static and dynamic shared memory above 48 KiB in all must be opted
    // into: without it, a kernel may take only 48 KiB less its static
    // shared memory dynamically.
    if (uint64_t(std::max(staticShared, 0)) + shared > 48 * 1024)
      UTA_TRY(withContext(
          at, UTA_CU(*driver_, cuFuncSetAttribute, kernel.function,
                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                     int(shared))));
    // With its shared memory settled, whether the device can hold each
    // cluster launch's blocks at once: a cluster that cannot is refused
    // here, not at its launch.
    for (size_t l = 0; l < manifest.launches.size(); ++l) {
      const LaunchDesc &launch = manifest.launches[l];
      if (launch.kernelIndex == k && launch.cluster)
        UTA_TRY(checkClusterFits(kernel.function, launch, launchWhere(l)));
    }
    executable->kernels.push_back(std::move(kernel));
  }
  for (const LaunchDesc &launch : manifest.launches)
    executable->launchArgs.push_back(
        resolveLaunchArgs(manifest, positionOfId, launch.args));
  return std::unique_ptr<Executable>(std::move(executable));
}

Status CudaBackend::run(Executable &base, std::span<const DeviceBuffer> buffers,
                        std::vector<KernelTiming> *timings) {
  auto &executable = static_cast<CudaExecutable &>(base);
  UTA_TRY(checkRun(executable, buffers));
  UTA_TRY(makeCurrent());
  // One run at a time on the stream; the executable's events are used under
  // the same lock.
  std::lock_guard<std::mutex> lock(streamMutex_);
  if (timings && executable.events.empty()) {
    // One event before the first launch and one after each; the executable
    // destroys the events it holds, including on failure.
    for (size_t i = 0; i <= executable.launches.size(); ++i) {
      CUevent event = nullptr;
      if (Status status = UTA_CU(*driver_, cuEventCreate, &event,
                                 unsigned(CU_EVENT_DEFAULT));
          !status) {
        for (CUevent created : executable.events)
          (void)driver_->api().cuEventDestroy(created);
        executable.events.clear();
        return status;
      }
      executable.events.push_back(event);
    }
  }
  if (Status status = queueLaunches(executable, buffers, stream_,
                                    timings ? &executable.events : nullptr);
      !status) {
    // Let the launches already queued finish before their buffers go back.
    (void)driver_->api().cuStreamSynchronize(stream_);
    return status;
  }
  // Faults inside a kernel surface here.
  if (Status status = UTA_CU(*driver_, cuStreamSynchronize, stream_); !status)
    return withContext(executable.path + ": running the launches", status);

  if (timings)
    for (size_t l = 0; l < executable.launches.size(); ++l) {
      float milliseconds = 0;
      UTA_TRY(UTA_CU(*driver_, cuEventElapsedTime, &milliseconds,
                     executable.events[l], executable.events[l + 1]));
      timings->push_back(
          KernelTiming{l, executable.launches[l].kernel, milliseconds});
    }
  return Status();
}

Status CudaBackend::runOnStream(Executable &base,
                                std::span<const DeviceBuffer> buffers,
                                uint64_t stream) {
  auto &executable = static_cast<CudaExecutable &>(base);
  UTA_TRY(checkRun(executable, buffers));
  UTA_TRY(makeCurrent());
  // No lock: the caller orders its own stream, and queueing touches no
  // state of the backend's (the events and the flush are timed runs' only).
  return queueLaunches(executable, buffers, reinterpret_cast<CUstream>(stream),
                       nullptr);
}

Status CudaBackend::checkRun(const Executable &base,
                             std::span<const DeviceBuffer> buffers) const {
  const auto &executable = static_cast<const CudaExecutable &>(base);
  if (executable.owner != this)
    return Status::error(ErrorCode::Internal,
                         "cuda: the executable was loaded by another backend");
  if (buffers.size() != executable.numBuffers)
    return Status::error(ErrorCode::Internal,
                         "cuda: run got " + std::to_string(buffers.size()) +
                             " buffers for a manifest with " +
                             std::to_string(executable.numBuffers));
  return Status();
}

Status CudaBackend::queueLaunches(Executable &base,
                                  std::span<const DeviceBuffer> buffers,
                                  CUstream stream,
                                  const std::vector<CUevent> *events) {
  auto &executable = static_cast<CudaExecutable &>(base);
  const std::vector<LaunchDesc> &launches = executable.launches;
  auto where = [&](size_t l) {
    return executable.path + ": launches[" + std::to_string(l) + "] (" +
           launches[l].kernel + ")";
  };

  std::vector<uint64_t> slots;
  std::vector<void *> params;
  std::vector<CUtensorMap> tensorMaps;
  for (size_t l = 0; l < launches.size(); ++l) {
    const LaunchDesc &launch = launches[l];
    const LoadedKernel &kernel = executable.kernels[launch.kernelIndex];
    const LaunchArgs &args = executable.launchArgs[l];
    slots = args.scalarSlots;
    params.resize(slots.size());
    for (size_t a = 0; a < slots.size(); ++a) {
      if (args.bufferPositions[a] >= 0)
        slots[a] = buffers[args.bufferPositions[a]].handle;
      params[a] = &slots[a];
    }
    // cuLaunchKernel copies the parameters, so one array serves every
    // launch.
    tensorMaps.resize(args.tensorMaps.size());
    for (size_t t = 0; t < args.tensorMaps.size(); ++t) {
      const LaunchArgs::TensorMapArg &map = args.tensorMaps[t];
      UTA_TRY(withContext(where(l),
                          encodeTensorMap(*driver_, map.encoding,
                                          buffers[map.bufferPosition].handle,
                                          tensorMaps[t])));
      params[map.argument] = &tensorMaps[t];
    }
    // A timed run starts with a cold L2, as a baseline timed by do_bench
    // does: the flush comes once, before the first launch, and the launches
    // after it find what the ones before them left in the L2. The first
    // event is queued behind the flush, so the GPU is busy when the host
    // submits the launches: the events bracket the GPU's work, not the
    // submission. A launch's time runs from the previous launch's end
    // event, so the launches' times add up to the run's.
    if (events && l == 0) {
      UTA_TRY(queueCacheFlush());
      UTA_TRY(UTA_CU(*driver_, cuEventRecord, (*events)[0], stream));
    }
    // Zeroed after the start event: the launch's time includes it.
    for (size_t position : launch.zeroedPositions)
      UTA_TRY(withContext(where(l),
                          UTA_CU(*driver_, cuMemsetD32Async,
                                 CUdeviceptr(buffers[position].handle), 0u,
                                 size_t(buffers[position].bytes / 4), stream)));
    UTA_TRY(withContext(where(l),
                        launchKernel(kernel.function, launch,
                                     params.empty() ? nullptr : params.data(),
                                     stream)));
    if (events)
      UTA_TRY(UTA_CU(*driver_, cuEventRecord, (*events)[l + 1], stream));
  }
  return Status();
}

Expected<std::unique_ptr<Backend>>
uta::runtime::cuda::createCudaBackend(const BackendOptions &options) {
  Expected<std::unique_ptr<CudaBackend>> backend = CudaBackend::create(options);
  if (!backend)
    return backend.status();
  return std::unique_ptr<Backend>(std::move(*backend));
}
