//===- Executable.cpp - The runtime API: devices, tensors, executables ----===//
//
// include/uta/Runtime.h over runtime/: Device::open picks and opens a
// backend, Executable::load reads a manifest and loads its module through
// runtime::Executor, and Executable::run checks every argument against the
// graph's signature before handing host or device buffers to the executor.
// No MLIR or LLVM here: this is UTA::runtime.
//
//===----------------------------------------------------------------------===//

#include "lib/API/Runtime/ExecutableImpl.h"

#include "runtime/core/Compare.h"
#include "runtime/core/Executor.h"
#include "runtime/core/Half.h"
#include "runtime/core/Profile.h"
#include "runtime/core/Random.h"
#if UTA_HAVE_CUDA_BACKEND
#include "runtime/cuda/CudaBackend.h"
#endif
#if UTA_HAVE_VULKAN_BACKEND
#include "runtime/vulkan/VulkanBackend.h"
#endif

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

using namespace uta;
using namespace uta::detail;
namespace rt = uta::runtime;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

const char *uta::targetName(Target target) {
  switch (target) {
  case Target::Ptx:
    return "ptx";
  case Target::Spirv:
    return "spirv";
  case Target::Msl:
    return "msl";
  }
  return "?";
}

int64_t TensorType::numElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

std::string TensorType::str() const {
  return rt::describeTensorType(toElementType(dtype), shape);
}

std::vector<uint16_t> uta::toHalfBits(DType dtype,
                                      std::span<const float> values) {
  std::vector<uint16_t> bits(values.size());
  if (dtype == DType::BF16)
    rt::floatToBfloat16(values, bits);
  else
    rt::floatToHalf(values, bits);
  return bits;
}

std::vector<float> uta::fromHalfBits(DType dtype,
                                     std::span<const uint16_t> bits) {
  std::vector<float> values(bits.size());
  if (dtype == DType::BF16)
    rt::bfloat16ToFloat(bits, values);
  else
    rt::halfToFloat(bits, values);
  return values;
}

//===----------------------------------------------------------------------===//
// The reference device's memory
//===----------------------------------------------------------------------===//

namespace {

/// Host memory behind the Backend interface, for the reference device: its
/// tensors live on the host, and its executables (the compiler library's
/// interpreter) read and write them through upload and download.
class HostBackend final : public rt::Backend {
public:
  const char *name() const override { return "reference"; }
  std::string deviceDescription() const override {
    return "float64 reference interpreter (host memory)";
  }
  /// Nothing is launched here (load refuses every module): no limits.
  rt::DeviceLimits limits() const override {
    constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
    rt::DeviceLimits limits;
    limits.maxGrid = limits.maxBlock = {kNone, kNone, kNone};
    limits.maxThreadsPerBlock = limits.maxDynamicSharedBytes = kNone;
    limits.maxKernelArguments = limits.maxBufferBytes = kNone;
    return limits;
  }

  Expected<rt::DeviceBuffer> allocate(uint64_t bytes, uint64_t) override {
    auto storage = std::make_unique<std::byte[]>(bytes ? bytes : 1);
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t handle = nextHandle++;
    buffers.emplace(handle, Buffer{std::move(storage), bytes});
    return rt::DeviceBuffer{handle, bytes};
  }
  void release(rt::DeviceBuffer buffer) override {
    std::lock_guard<std::mutex> lock(mutex);
    buffers.erase(buffer.handle);
  }
  Status upload(rt::DeviceBuffer buffer,
                std::span<const std::byte> data) override {
    std::byte *storage = find(buffer, data.size());
    if (!storage)
      return Status::error(ErrorCode::Internal,
                           "reference: upload to an unknown buffer");
    // (memcpy from a null pointer is undefined even for 0 bytes.)
    if (!data.empty())
      std::memcpy(storage, data.data(), data.size());
    return Status();
  }
  Status download(rt::DeviceBuffer buffer, std::span<std::byte> data) override {
    std::byte *storage = find(buffer, data.size());
    if (!storage)
      return Status::error(ErrorCode::Internal,
                           "reference: download from an unknown buffer");
    if (!data.empty())
      std::memcpy(data.data(), storage, data.size());
    return Status();
  }
  Expected<std::unique_ptr<rt::Executable>>
  load(const rt::Manifest &, std::span<const std::byte>) override {
    return Status::error(
        ErrorCode::InvalidInput,
        "the reference device interprets graphs and loads no modules: load a "
        "uta::CompiledGraph (uta/Compiler.h) on it instead");
  }
  Status run(rt::Executable &, std::span<const rt::DeviceBuffer>,
             std::vector<rt::KernelTiming> *) override {
    return Status::error(ErrorCode::Internal,
                         "the reference device runs no modules");
  }

private:
  struct Buffer {
    std::unique_ptr<std::byte[]> storage;
    uint64_t bytes;
  };
  /// The storage of `buffer` if it holds at least `bytes`; null otherwise.
  /// The storage stays put while the buffer lives (only its owner frees it).
  std::byte *find(rt::DeviceBuffer buffer, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = buffers.find(buffer.handle);
    if (it == buffers.end() || it->second.bytes < bytes)
      return nullptr;
    return it->second.storage.get();
  }

  std::mutex mutex;
  std::map<uint64_t, Buffer> buffers; // guarded by mutex
  uint64_t nextHandle = 1;            // guarded by mutex
};

[[maybe_unused]] std::string unavailableNotBuilt(const char *backend) {
  return std::string("the ") + backend +
         " backend is not available here: this build of UTA has no " + backend +
         " backend";
}

Expected<std::unique_ptr<rt::Backend>>
openBackend(const std::string &name, int index, DeviceImpl &device) {
  rt::BackendOptions options;
  options.device = index;
  if (name == "cuda") {
#if UTA_HAVE_CUDA_BACKEND
    Expected<std::unique_ptr<rt::cuda::CudaBackend>> cuda =
        rt::cuda::CudaBackend::create(options);
    if (!cuda)
      return cuda.status();
    device.target = Target::Ptx;
    device.sm = std::to_string((*cuda)->computeCapability());
    device.cudaStream =
        uint64_t(reinterpret_cast<uintptr_t>((*cuda)->stream()));
    return std::unique_ptr<rt::Backend>(std::move(*cuda));
#else
    return Status::error(ErrorCode::Unavailable, unavailableNotBuilt("cuda"));
#endif
  }
  if (name == "vulkan") {
#if UTA_HAVE_VULKAN_BACKEND
    Expected<std::unique_ptr<rt::Backend>> vulkan =
        rt::vulkan::createVulkanBackend(options);
    if (vulkan)
      device.target = Target::Spirv;
    return vulkan;
#else
    return Status::error(ErrorCode::Unavailable, unavailableNotBuilt("vulkan"));
#endif
  }
  if (index != 0)
    return Status::error(ErrorCode::InvalidInput,
                         "device " + std::to_string(index) +
                             " does not exist (the reference backend has "
                             "one device, 0)");
  return std::unique_ptr<rt::Backend>(std::make_unique<HostBackend>());
}

} // namespace

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Expected<Device> Device::open(std::string_view backend, int index) {
  std::string name(backend);
  if (name != "cuda" && name != "vulkan" && name != "reference" &&
      name != "best")
    return Status::error(ErrorCode::InvalidInput,
                         "unknown backend \"" + name +
                             "\" (expected cuda, vulkan, reference or best)");
  auto impl = std::make_shared<DeviceImpl>();
  bool best = name == "best";
  Expected<std::unique_ptr<rt::Backend>> opened =
      openBackend(best ? "cuda" : name, index, *impl);
  if (best) {
    name = "cuda";
    // Vulkan where cuda cannot run here; any other cuda failure (a device
    // index out of range) is the caller's to see.
    if (!opened && opened.status().code() == ErrorCode::Unavailable) {
      std::string whyNotCuda = opened.status().message();
      impl->target.reset();
      opened = openBackend("vulkan", index, *impl);
      name = "vulkan";
      if (!opened && opened.status().code() == ErrorCode::Unavailable)
        return Status::error(ErrorCode::Unavailable,
                             "no backend is available here: " + whyNotCuda +
                                 "; " + opened.status().message());
    }
  }
  if (!opened)
    return opened.status();
  impl->backendName = name;
  impl->backend = std::move(*opened);
  impl->description = impl->backend->deviceDescription();
  return Access::make<Device>(std::move(impl));
}

const std::string &Device::backend() const { return impl_->backendName; }
std::string Device::description() const { return impl_->description; }
std::optional<Target> Device::target() const { return impl_->target; }
const std::string &Device::sm() const { return impl_->sm; }

Expected<DeviceTensor> Device::allocate(const TensorType &type) const {
  for (int64_t size : type.shape)
    if (size < 0)
      return Status::error(ErrorCode::InvalidInput,
                           "allocate: negative size in " + type.str());
  // 16 bytes covers the vector loads of every kernel.
  Expected<rt::DeviceBuffer> buffer =
      impl_->backend->allocate(type.bytes(), 16);
  if (!buffer)
    return buffer.status();
  return Access::make<DeviceTensor>(
      std::make_shared<DeviceTensorImpl>(impl_, *buffer, type));
}

Expected<DeviceTensor> Device::wrap(uint64_t address,
                                    const TensorType &type) const {
  if (impl_->backendName != "cuda")
    return Status::error(ErrorCode::InvalidInput,
                         "wrap: " + impl_->backendName +
                             " tensors live in the backend's own memory; only "
                             "cuda wraps the caller's device pointers");
  for (int64_t size : type.shape)
    if (size < 0)
      return Status::error(ErrorCode::InvalidInput,
                           "wrap: negative size in " + type.str());
  if (address == 0 && type.bytes() != 0)
    return Status::error(ErrorCode::InvalidInput, "wrap: a null pointer");
  // The kernels' vector loads assume what allocate() guarantees.
  if (address % 16 != 0)
    return Status::error(ErrorCode::InvalidInput,
                         "wrap: the device pointer is not 16-byte aligned");
  return Access::make<DeviceTensor>(std::make_shared<DeviceTensorImpl>(
      impl_, rt::DeviceBuffer{address, type.bytes()}, type, /*owned=*/false));
}

uint64_t Device::cudaStream() const { return impl_->cudaStream; }

//===----------------------------------------------------------------------===//
// DeviceTensor
//===----------------------------------------------------------------------===//

/// Whether a view has exactly the type and element count of `type`.
static Status checkView(const std::string &what, const HostTensorView &view,
                        const TensorType &type, bool write) {
  if (view.type() != type)
    return Status::error(ErrorCode::InvalidInput, what + ": expected " +
                                                      type.str() + ", got " +
                                                      view.type().str());
  if (view.size() != size_t(type.numElements()))
    return Status::error(ErrorCode::InvalidInput,
                         what + ": " + view.type().str() + " views " +
                             std::to_string(view.size()) + " elements, not " +
                             std::to_string(type.numElements()));
  if (write && !view.writable())
    return Status::error(ErrorCode::InvalidInput,
                         what + ": the view's data is const");
  return Status();
}

const TensorType &DeviceTensor::type() const { return impl_->type; }

uint64_t DeviceTensor::address() const {
  // Only cuda's handles are addresses (runtime/core/Backend.h).
  return impl_->device->backendName == "cuda" ? impl_->buffer.handle : 0;
}

Status DeviceTensor::upload(const HostTensorView &from) const {
  if (Status status = checkView("upload", from, impl_->type, false); !status)
    return status;
  return impl_->device->backend->upload(impl_->buffer, from.bytes());
}

Status DeviceTensor::download(const HostTensorView &to) const {
  if (Status status = checkView("download", to, impl_->type, true); !status)
    return status;
  return impl_->device->backend->download(impl_->buffer, to.writableBytes());
}

//===----------------------------------------------------------------------===//
// Executable
//===----------------------------------------------------------------------===//

namespace {

/// A module loaded on a cuda or vulkan device, run by runtime::Executor.
class BackendExecutable final : public ExecutableImpl {
public:
  BackendExecutable(std::shared_ptr<DeviceImpl> device, rt::Executor executor,
                    std::vector<TensorType> inputs,
                    std::vector<TensorType> outputs)
      : ExecutableImpl(executor.manifest().entry, std::move(inputs),
                       std::move(outputs)),
        device(std::move(device)), executor(std::move(executor)) {}

  Status runHost(std::span<const HostTensorView> inputs,
                 std::span<const HostTensorView> outputs,
                 const RunOptions &options) const override {
    std::vector<std::span<const std::byte>> arguments;
    for (const HostTensorView &input : inputs)
      arguments.push_back(input.bytes());
    std::vector<std::span<std::byte>> results;
    for (const HostTensorView &output : outputs)
      results.push_back(output.writableBytes());
    std::vector<rt::KernelTiming> timings;
    Status status = executor.runHost(arguments, results, runOptions(options),
                                     options.timings ? &timings : nullptr);
    appendTimings(timings, options);
    return status;
  }

  Status runDevice(std::span<const rt::DeviceBuffer> inputs,
                   std::span<const rt::DeviceBuffer> outputs,
                   const RunOptions &options) const override {
    std::vector<rt::KernelTiming> timings;
    Status status = executor.runDevice(inputs, outputs, runOptions(options),
                                       options.timings ? &timings : nullptr);
    appendTimings(timings, options);
    return status;
  }

  uint64_t workspaceBytes() const override { return executor.workspaceBytes(); }
  uint64_t workspaceAlignment() const override {
    return executor.workspaceAlignment();
  }

private:
  static rt::RunOptions runOptions(const RunOptions &options) {
    rt::RunOptions converted;
    converted.profile = options.timings != nullptr;
    converted.poison = options.poisonOutputs;
    converted.callerStream = options.cudaStream;
    converted.workspace = {options.workspaceAddress, options.workspaceBytes};
    return converted;
  }
  /// The runtime's timings, each with its launch's counts.
  void appendTimings(const std::vector<rt::KernelTiming> &timings,
                     const RunOptions &options) const {
    if (!options.timings)
      return;
    const std::vector<rt::LaunchDesc> &launches = executor.manifest().launches;
    for (const rt::KernelTiming &timing : timings) {
      KernelTiming converted;
      converted.kernel = timing.kernel;
      converted.milliseconds = timing.milliseconds;
      converted.launch = timing.launch;
      if (timing.launch < launches.size() && launches[timing.launch].cost) {
        const rt::LaunchDesc::Cost &cost = *launches[timing.launch].cost;
        converted.flops = cost.flops;
        converted.bytesRead = cost.bytesRead;
        converted.bytesWritten = cost.bytesWritten;
      }
      if (timing.launch < launches.size() && launches[timing.launch].plan)
        converted.plan = launches[timing.launch].plan->row;
      options.timings->push_back(std::move(converted));
    }
  }

  // The device outlives the executor, which refers to its backend.
  std::shared_ptr<DeviceImpl> device;
  rt::Executor executor;
};

Expected<Executable> loadManifest(const Device &device,
                                  Expected<rt::Manifest> manifest,
                                  std::span<const std::byte> *image) {
  if (!manifest)
    return manifest.status();
  const std::shared_ptr<DeviceImpl> &impl = Access::impl(device);
  std::vector<TensorType> inputs, outputs;
  for (size_t position : manifest->argumentBuffers()) {
    const rt::BufferDesc &desc = manifest->buffers[position];
    inputs.push_back({fromElementType(desc.type), desc.shape});
  }
  for (size_t position : manifest->resultBuffers()) {
    const rt::BufferDesc &desc = manifest->buffers[position];
    outputs.push_back({fromElementType(desc.type), desc.shape});
  }
  Expected<rt::Executor> executor =
      image ? rt::Executor::load(*impl->backend, std::move(*manifest), *image)
            : rt::Executor::load(*impl->backend, std::move(*manifest));
  if (!executor)
    return executor.status();
  return Access::make<Executable>(
      device, std::make_shared<BackendExecutable>(impl, std::move(*executor),
                                                  std::move(inputs),
                                                  std::move(outputs)));
}

} // namespace

Expected<Executable> Executable::load(const Device &device,
                                      const std::string &manifestPath) {
  return loadManifest(device, rt::readManifest(manifestPath), nullptr);
}

Expected<Executable> Executable::load(const Device &device,
                                      std::string_view manifest,
                                      std::span<const std::byte> module) {
  return loadManifest(
      device, rt::parseManifest(manifest, "manifest", std::string()), &module);
}

const std::string &Executable::name() const { return impl_->name; }
const std::vector<TensorType> &Executable::inputs() const {
  return impl_->inputs;
}
const std::vector<TensorType> &Executable::outputs() const {
  return impl_->outputs;
}
const Device &Executable::device() const { return device_; }
uint64_t Executable::workspaceBytes() const { return impl_->workspaceBytes(); }
uint64_t Executable::workspaceAlignment() const {
  return impl_->workspaceAlignment();
}

/// "f takes 2 inputs and returns 1 output, got 3 and 1".
static Status checkCounts(const ExecutableImpl &impl, size_t inputs,
                          size_t outputs) {
  if (inputs == impl.inputs.size() && outputs == impl.outputs.size())
    return Status();
  auto plural = [](size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  return Status::error(
      ErrorCode::InvalidInput,
      impl.name + " takes " + plural(impl.inputs.size(), "input") +
          " and returns " + plural(impl.outputs.size(), "output") + ", got " +
          std::to_string(inputs) + " and " + std::to_string(outputs));
}

/// A caller's stream is for runs on cuda device tensors only.
static Status checkCudaStream(const Executable &exe, const RunOptions &options,
                              bool onDevice) {
  if (!options.cudaStream.has_value() ||
      (onDevice && exe.device().backend() == "cuda"))
    return Status();
  return Status::error(ErrorCode::InvalidInput,
                       exe.name() + ": a run on " +
                           (onDevice ? exe.device().backend() + " tensors"
                                     : std::string("host memory")) +
                           " takes no CUDA stream (RunOptions::cudaStream)");
}

Status Executable::run(std::span<const HostTensorView> inputs,
                       std::span<const HostTensorView> outputs,
                       const RunOptions &options) const {
  if (Status status = checkCounts(*impl_, inputs.size(), outputs.size());
      !status)
    return status;
  if (Status status = checkCudaStream(*this, options, false); !status)
    return status;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status = checkView("input " + std::to_string(i), inputs[i],
                                  impl_->inputs[i], false);
        !status)
      return status;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Status status = checkView("output " + std::to_string(i), outputs[i],
                                  impl_->outputs[i], true);
        !status)
      return status;
  return impl_->runHost(inputs, outputs, options);
}

Status Executable::run(std::span<const DeviceTensor> inputs,
                       std::span<const DeviceTensor> outputs,
                       const RunOptions &options) const {
  if (Status status = checkCounts(*impl_, inputs.size(), outputs.size());
      !status)
    return status;
  if (Status status = checkCudaStream(*this, options, true); !status)
    return status;
  const DeviceImpl *device = Access::impl(device_).get();
  auto collect = [&](std::span<const DeviceTensor> tensors,
                     const std::vector<TensorType> &types, const char *what,
                     std::vector<rt::DeviceBuffer> &buffers) -> Status {
    for (size_t i = 0; i < tensors.size(); ++i) {
      const std::shared_ptr<DeviceTensorImpl> &tensor =
          Access::impl(tensors[i]);
      std::string name = what + std::to_string(i);
      if (!tensor)
        return Status::error(ErrorCode::InvalidInput,
                             name + ": an empty tensor handle");
      if (tensor->device.get() != device)
        return Status::error(ErrorCode::InvalidInput,
                             name + ": a tensor of another device (" +
                                 tensor->device->backendName +
                                 "), this executable runs on " +
                                 device->backendName);
      if (tensor->type != types[i])
        return Status::error(ErrorCode::InvalidInput,
                             name + ": expected " + types[i].str() + ", got " +
                                 tensor->type.str());
      buffers.push_back(tensor->buffer);
    }
    return Status();
  };
  std::vector<rt::DeviceBuffer> inputBuffers, outputBuffers;
  if (Status status = collect(inputs, impl_->inputs, "input ", inputBuffers);
      !status)
    return status;
  if (Status status =
          collect(outputs, impl_->outputs, "output ", outputBuffers);
      !status)
    return status;
  for (size_t o = 0; o < outputs.size(); ++o) {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (outputBuffers[o].handle == inputBuffers[i].handle)
        return Status::error(ErrorCode::InvalidInput,
                             "output " + std::to_string(o) +
                                 " is the tensor of input " +
                                 std::to_string(i));
    for (size_t p = 0; p < o; ++p)
      if (outputBuffers[o].handle == outputBuffers[p].handle)
        return Status::error(ErrorCode::InvalidInput,
                             "outputs " + std::to_string(p) + " and " +
                                 std::to_string(o) + " are one tensor");
  }
  return impl_->runDevice(inputBuffers, outputBuffers, options);
}

//===----------------------------------------------------------------------===//
// Checking results
//===----------------------------------------------------------------------===//

void uta::fillNormal(std::span<float> values, uint64_t seed, uint64_t stream) {
  rt::NormalGenerator(seed, stream).fill(values);
}

double uta::defaultTolerance(DType dtype, bool reduces, bool fastMath) {
  switch (dtype) {
  case DType::F32:
    return rt::getDefaultTolerance(fastMath ? rt::CheckPrecision::kF32FastMath
                                            : rt::CheckPrecision::kF32,
                                   reduces);
  case DType::F16:
    return rt::getDefaultTolerance(rt::CheckPrecision::kF16, reduces);
  case DType::BF16:
    return rt::getDefaultTolerance(rt::CheckPrecision::kBF16, reduces);
  }
  return 0;
}

Comparison uta::compare(std::string_view name, std::span<const float> out,
                        std::span<const float> ref,
                        std::span<const int64_t> shape, double tolerance) {
  std::vector<double> reference(ref.begin(), ref.end());
  Expected<rt::Comparison> compared =
      rt::compareResult(name, out, reference, shape, tolerance);
  Comparison result;
  if (!compared) {
    result.report = std::string(name) + ": " + compared.status().message();
    return result;
  }
  result.passed = compared->passed();
  result.relL2 = compared->relL2;
  result.maxRel = compared->maxRel;
  result.nonFinite = compared->nonFiniteOutputs;
  result.report = compared->getReport();
  return result;
}

std::string
uta::formatProfile(const Device &device,
                   std::span<const std::vector<KernelTiming>> runs) {
  rt::ProfileReport report;
  report.device = device.description();
  report.runs = runs.size();
  std::vector<double> totals;
  for (const std::vector<KernelTiming> &run : runs) {
    double total = 0;
    for (const KernelTiming &timing : run)
      total += timing.milliseconds;
    totals.push_back(total);
  }
  report.totalMilliseconds = rt::medianMilliseconds(totals);
  if (!runs.empty()) {
    // Every run of an executable makes the same launches.
    for (size_t i = 0; i < runs.back().size(); ++i) {
      const KernelTiming &timing = runs.back()[i];
      std::vector<double> times;
      for (const std::vector<KernelTiming> &run : runs)
        if (i < run.size())
          times.push_back(run[i].milliseconds);
      rt::LaunchProfile launch{
          timing.launch, timing.kernel, rt::medianMilliseconds(times),
          times.size(),  std::nullopt,  timing.plan};
      if (!timing.flops.empty() || timing.bytesRead || timing.bytesWritten)
        launch.cost = rt::LaunchDesc::Cost{timing.flops, timing.bytesRead,
                                           timing.bytesWritten};
      report.launches.push_back(std::move(launch));
    }
  }
  return rt::formatProfileJson(report);
}
