//===- Executor.cpp - Runs a manifest's launch sequence on a backend ------===//
//
// Buffers are bound by position in Manifest::buffers. Constants are uploaded
// once at load and stay resident; everything else comes from the backend's
// allocator (a caching pool for CUDA) for one run and goes back afterwards,
// on every path, through a small guard.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Executor.h"
#include "runtime/core/WorkspacePlan.h"

#include "runtime/core/Compare.h"
#include "runtime/core/Half.h"
#include "runtime/core/LaunchCheck.h"

#include <algorithm>
#include <cassert>
#include <cstring>

using namespace uta::runtime;

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

/// memcpy of `size` bytes; a zero-element tensor's vectors may hold null
/// pointers, which memcpy does not accept even for 0 bytes.
static void copyBytes(void *to, const void *from, size_t size) {
  if (size != 0)
    std::memcpy(to, from, size);
}

uint64_t HostTensor::numElements() const {
  uint64_t count = 1;
  for (int64_t extent : shape)
    count *= uint64_t(extent);
  return count;
}

std::vector<float> HostTensor::toFloat32() const {
  size_t count = data.size() / elementTypeSize(type);
  std::vector<float> values(count);
  if (type == ElementType::kF32) {
    copyBytes(values.data(), data.data(), count * 4);
    return values;
  }
  std::vector<uint16_t> bits(count);
  copyBytes(bits.data(), data.data(), count * 2);
  if (type == ElementType::kF16)
    halfToFloat(bits, values);
  else
    bfloat16ToFloat(bits, values);
  return values;
}

HostTensor HostTensor::fromFloat32(ElementType type, std::vector<int64_t> shape,
                                   std::span<const float> values) {
  HostTensor tensor;
  tensor.type = type;
  tensor.shape = std::move(shape);
  assert(values.size() == tensor.numElements() && "element count mismatch");
  tensor.data.resize(values.size() * elementTypeSize(type));
  if (type == ElementType::kF32) {
    copyBytes(tensor.data.data(), values.data(), values.size() * 4);
    return tensor;
  }
  std::vector<uint16_t> bits(values.size());
  if (type == ElementType::kF16)
    floatToHalf(values, bits);
  else
    floatToBfloat16(values, bits);
  copyBytes(tensor.data.data(), bits.data(), bits.size() * 2);
  return tensor;
}

std::string
uta::runtime::describeTensorType(ElementType type,
                                 const std::vector<int64_t> &shape) {
  std::string text = std::string(elementTypeName(type)) + " [";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

/// Points each intermediate of `descs` at its place in `plan`: the
/// workspace that starts at `workspace`, or the result that holds it.
static void bindIntermediates(std::span<const BufferDesc> descs,
                              const WorkspacePlan &plan, uint64_t workspace,
                              std::vector<DeviceBuffer> &buffers) {
  for (size_t i = 0; i < descs.size(); ++i) {
    if (descs[i].role != BufferRole::kIntermediate)
      continue;
    size_t result = plan.storedIn[i];
    uint64_t address = result != WorkspacePlan::kNotStoredIn
                           ? buffers[result].handle
                           : workspace + plan.offsets[i];
    buffers[i] = DeviceBuffer{address, descs[i].bytes};
  }
}

namespace {

/// The buffer of each manifest buffer of one run: those the run allocates
/// go back to the backend when it goes out of scope, whichever way the run
/// ends; the executor's constants and the caller's buffers are borrowed.
struct RunBuffers {
  RunBuffers(Backend &backend, size_t count)
      : buffers(count), allocated(backend) {}

  /// Sets buffer i to `constant` where the executor holds one, else to a
  /// fresh allocation of `desc`.
  Status provide(size_t i, const BufferDesc &desc,
                 const DeviceBuffer *constant) {
    if (constant) {
      buffers[i] = *constant;
      return Status();
    }
    Expected<DeviceBuffer> buffer = allocated.allocate(desc);
    if (!buffer)
      return buffer.status();
    buffers[i] = *buffer;
    return Status();
  }

  /// Places the intermediates of `descs` as `plan` says, in one new
  /// allocation of plan.bytes (a backend that addresses buffers by
  /// pointer), once the results' buffers are set.
  Status placeInWorkspace(std::span<const BufferDesc> descs,
                          const WorkspacePlan &plan) {
    uint64_t start = 0;
    if (plan.bytes) {
      BufferDesc workspaceDesc;
      workspaceDesc.bytes = plan.bytes;
      workspaceDesc.alignment = plan.alignment;
      Expected<DeviceBuffer> workspace = allocated.allocate(workspaceDesc);
      if (!workspace)
        return workspace.status();
      start = workspace->handle;
    }
    bindIntermediates(descs, plan, start, buffers);
    return Status();
  }

  std::vector<DeviceBuffer> buffers;
  DeviceBufferGuard allocated;
};

} // namespace

Executor::Executor(Backend &backend, Manifest manifest)
    : backend_(&backend), manifest_(std::move(manifest)),
      constants_(manifest_.buffers.size()),
      hasConstant_(manifest_.buffers.size(), false),
      // Intermediates not live at the same launch share bytes; the
      // manifest's sizes were checked against int64 when it was read.
      workspace_(planWorkspace(manifest_)) {}

Executor::Executor(Executor &&other) noexcept
    : backend_(other.backend_), manifest_(std::move(other.manifest_)),
      executable_(std::move(other.executable_)),
      constants_(std::move(other.constants_)),
      hasConstant_(std::move(other.hasConstant_)),
      workspace_(std::move(other.workspace_)) {
  other.constants_.clear();
  other.hasConstant_.clear();
}

Executor &Executor::operator=(Executor &&other) noexcept {
  if (this == &other)
    return *this;
  releaseConstants();
  backend_ = other.backend_;
  manifest_ = std::move(other.manifest_);
  executable_ = std::move(other.executable_);
  constants_ = std::move(other.constants_);
  hasConstant_ = std::move(other.hasConstant_);
  workspace_ = std::move(other.workspace_);
  other.constants_.clear();
  other.hasConstant_.clear();
  return *this;
}

Executor::~Executor() { releaseConstants(); }

void Executor::releaseConstants() {
  for (size_t i = 0; i < hasConstant_.size(); ++i)
    if (hasConstant_[i])
      backend_->release(constants_[i]);
  hasConstant_.assign(hasConstant_.size(), false);
}

Expected<Executor> Executor::load(Backend &backend, Manifest manifest) {
  Expected<std::vector<std::byte>> image = readModule(manifest);
  if (!image)
    return Status::error(ErrorCode::InvalidInput, manifest.path + ": module: " +
                                                      image.status().message());
  return load(backend, std::move(manifest), *image);
}

Expected<Executor> Executor::load(Backend &backend, Manifest manifest,
                                  std::span<const std::byte> image) {
  // Before the driver sees the module: every launch must be one the device
  // can run.
  UTA_TRY(checkLaunches(manifest, backend.limits()));
  Executor executor(backend, std::move(manifest));
  Expected<std::unique_ptr<Executable>> executable =
      backend.load(executor.manifest_, image);
  if (!executable)
    return executable.status();
  executor.executable_ = std::move(*executable);

  const std::vector<BufferDesc> &buffers = executor.manifest_.buffers;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].role != BufferRole::kConstant)
      continue;
    Expected<DeviceBuffer> buffer =
        backend.allocate(buffers[i].bytes, buffers[i].alignment);
    if (!buffer)
      return buffer.status();
    executor.constants_[i] = *buffer;
    executor.hasConstant_[i] = true;
    UTA_TRY(backend.upload(*buffer, buffers[i].constantData));
  }
  return executor;
}

Expected<RunOutput> Executor::run(std::span<const HostTensor> arguments,
                                  const RunOptions &options) const {
  const std::vector<BufferDesc> &descs = manifest_.buffers;
  std::vector<size_t> argumentBuffers = manifest_.argumentBuffers();
  if (arguments.size() != argumentBuffers.size())
    return Status::error(
        ErrorCode::InvalidInput,
        manifest_.entry + " takes " + std::to_string(argumentBuffers.size()) +
            " arguments, got " + std::to_string(arguments.size()));
  std::vector<std::span<const std::byte>> argumentBytes;
  for (size_t a = 0; a < arguments.size(); ++a) {
    const BufferDesc &desc = descs[argumentBuffers[a]];
    const HostTensor &argument = arguments[a];
    if (argument.type != desc.type || argument.shape != desc.shape)
      return Status::error(
          ErrorCode::InvalidInput,
          "argument " + std::to_string(a) + ": expected " +
              describeTensorType(desc.type, desc.shape) + ", got " +
              describeTensorType(argument.type, argument.shape));
    if (argument.data.size() != desc.bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "argument " + std::to_string(a) + ": holds " +
                               std::to_string(argument.data.size()) +
                               " bytes, expected " +
                               std::to_string(desc.bytes));
    argumentBytes.push_back(argument.data);
  }

  RunOutput output;
  std::vector<std::span<std::byte>> resultBytes;
  for (size_t position : manifest_.resultBuffers()) {
    const BufferDesc &desc = descs[position];
    HostTensor result;
    result.type = desc.type;
    result.shape = desc.shape;
    result.data.resize(desc.bytes);
    output.results.push_back(std::move(result));
  }
  for (HostTensor &result : output.results)
    resultBytes.push_back(result.data);
  UTA_TRY(runHost(argumentBytes, resultBytes, options,
                  options.profile ? &output.timings : nullptr));
  return output;
}

/// Whether a caller passed as many arguments and results as the graph has.
static Status checkCounts(const Manifest &manifest, size_t expectedArguments,
                          size_t expectedResults, size_t arguments,
                          size_t results) {
  if (arguments == expectedArguments && results == expectedResults)
    return Status();
  return Status::error(
      ErrorCode::InvalidInput,
      manifest.entry + " takes " + std::to_string(expectedArguments) +
          " arguments and returns " + std::to_string(expectedResults) +
          " results, got " + std::to_string(arguments) + " and " +
          std::to_string(results));
}

Status Executor::runHost(std::span<const std::span<const std::byte>> arguments,
                         std::span<const std::span<std::byte>> results,
                         const RunOptions &options,
                         std::vector<KernelTiming> *timings) const {
  const std::vector<BufferDesc> &descs = manifest_.buffers;
  std::vector<size_t> argumentBuffers = manifest_.argumentBuffers();
  std::vector<size_t> resultBuffers = manifest_.resultBuffers();
  UTA_TRY(checkCounts(manifest_, argumentBuffers.size(), resultBuffers.size(),
                      arguments.size(), results.size()));
  for (size_t a = 0; a < arguments.size(); ++a)
    if (arguments[a].size() != descs[argumentBuffers[a]].bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "argument " + std::to_string(a) + ": holds " +
                               std::to_string(arguments[a].size()) +
                               " bytes, expected " +
                               std::to_string(descs[argumentBuffers[a]].bytes));
  for (size_t r = 0; r < results.size(); ++r)
    if (results[r].size() != descs[resultBuffers[r]].bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "result " + std::to_string(r) + ": has room for " +
                               std::to_string(results[r].size()) +
                               " bytes, expected " +
                               std::to_string(descs[resultBuffers[r]].bytes));

  RunBuffers run(*backend_, descs.size());
  bool shared = sharesWorkspace();
  for (size_t i = 0; i < descs.size(); ++i)
    if (!shared || descs[i].role != BufferRole::kIntermediate)
      UTA_TRY(
          run.provide(i, descs[i], hasConstant_[i] ? &constants_[i] : nullptr));
  if (shared)
    UTA_TRY(run.placeInWorkspace(descs, workspace_));
  for (size_t a = 0; a < arguments.size(); ++a)
    UTA_TRY(backend_->upload(run.buffers[argumentBuffers[a]], arguments[a]));
  UTA_TRY(launch(run.buffers, options, timings));
  for (size_t r = 0; r < results.size(); ++r)
    UTA_TRY(backend_->download(run.buffers[resultBuffers[r]], results[r]));
  return Status();
}

Status Executor::runDevice(std::span<const DeviceBuffer> arguments,
                           std::span<const DeviceBuffer> results,
                           const RunOptions &options,
                           std::vector<KernelTiming> *timings) const {
  const std::vector<BufferDesc> &descs = manifest_.buffers;
  std::vector<size_t> argumentBuffers = manifest_.argumentBuffers();
  std::vector<size_t> resultBuffers = manifest_.resultBuffers();
  UTA_TRY(checkCounts(manifest_, argumentBuffers.size(), resultBuffers.size(),
                      arguments.size(), results.size()));
  // The caller's buffers stand in for the manifest's result buffers; a
  // result that names an argument, a constant or another result has no
  // buffer of its own to stand in for (the compiler writes no such
  // manifest; runHost reads those results back).
  for (size_t r = 0; r < resultBuffers.size(); ++r) {
    const BufferDesc &desc = descs[resultBuffers[r]];
    bool listedBefore =
        std::find(resultBuffers.begin(), resultBuffers.begin() + r,
                  resultBuffers[r]) != resultBuffers.begin() + r;
    if (desc.role != BufferRole::kResult || listedBefore)
      return Status::error(
          ErrorCode::InvalidInput,
          "result " + std::to_string(r) + " is buffer " +
              std::to_string(desc.id) +
              (listedBefore                         ? ", an earlier result's"
               : desc.role == BufferRole::kArgument ? ", an argument"
                                                    : ", a constant") +
              ": a run on device buffers needs a result buffer of its own");
  }
  RunBuffers run(*backend_, descs.size());
  for (size_t a = 0; a < arguments.size(); ++a) {
    if (arguments[a].bytes < descs[argumentBuffers[a]].bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "argument " + std::to_string(a) + ": a buffer of " +
                               std::to_string(arguments[a].bytes) +
                               " bytes, expected " +
                               std::to_string(descs[argumentBuffers[a]].bytes));
    run.buffers[argumentBuffers[a]] = arguments[a];
  }
  for (size_t r = 0; r < results.size(); ++r) {
    if (results[r].bytes < descs[resultBuffers[r]].bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "result " + std::to_string(r) + ": a buffer of " +
                               std::to_string(results[r].bytes) +
                               " bytes, expected " +
                               std::to_string(descs[resultBuffers[r]].bytes));
    // Poisoning (and the kernels' writes) would clobber an input.
    for (size_t a = 0; a < arguments.size(); ++a)
      if (results[r].handle == arguments[a].handle)
        return Status::error(ErrorCode::InvalidInput,
                             "result " + std::to_string(r) +
                                 " is written to the buffer of argument " +
                                 std::to_string(a));
    for (size_t q = 0; q < r; ++q)
      if (results[r].handle == results[q].handle)
        return Status::error(ErrorCode::InvalidInput,
                             "results " + std::to_string(q) + " and " +
                                 std::to_string(r) + " share one buffer");
    run.buffers[resultBuffers[r]] = results[r];
  }
  if (options.callerStream)
    return launchOnCallerStream(run.buffers, options, timings);
  // The caller's buffers are set; the rest are constants or intermediates.
  bool shared = sharesWorkspace();
  if (shared)
    UTA_TRY(run.placeInWorkspace(descs, workspace_));
  for (size_t i = 0; i < descs.size(); ++i)
    if (hasConstant_[i] ||
        (!shared && descs[i].role == BufferRole::kIntermediate))
      UTA_TRY(
          run.provide(i, descs[i], hasConstant_[i] ? &constants_[i] : nullptr));
  return launch(run.buffers, options, timings);
}

bool Executor::sharesWorkspace() const {
  return backend_->addressesBuffersByPointer() &&
         std::any_of(manifest_.buffers.begin(), manifest_.buffers.end(),
                     [](const BufferDesc &desc) {
                       return desc.role == BufferRole::kIntermediate;
                     });
}

Status
Executor::launchOnCallerStream(std::vector<DeviceBuffer> &buffers,
                               const RunOptions &options,
                               std::vector<KernelTiming> *timings) const {
  if (!backend_->runsOnCallerStreams())
    return Status::error(ErrorCode::InvalidInput,
                         std::string(backend_->name()) +
                             " runs on no caller's stream (cuda only)");
  if (options.poison || options.profile || timings)
    return Status::error(ErrorCode::InvalidInput,
                         "a run on the caller's stream neither poisons nor "
                         "times its launches (both wait for the GPU)");
  const DeviceBuffer &workspace = options.workspace;
  if (workspace.bytes < workspace_.bytes)
    return Status::error(ErrorCode::InvalidInput,
                         "a run on the caller's stream needs a workspace of " +
                             std::to_string(workspace_.bytes) +
                             " bytes for its intermediates, got " +
                             std::to_string(workspace.bytes));
  if (workspace_.bytes > 0 && workspace.handle % workspace_.alignment != 0)
    return Status::error(ErrorCode::InvalidInput,
                         "the workspace must be aligned to " +
                             std::to_string(workspace_.alignment) + " bytes");
  const std::vector<BufferDesc> &descs = manifest_.buffers;
  for (size_t i = 0; i < descs.size(); ++i)
    if (hasConstant_[i])
      buffers[i] = constants_[i];
  bindIntermediates(descs, workspace_, workspace.handle, buffers);
  return backend_->runOnStream(*executable_, buffers, *options.callerStream);
}

Status Executor::launch(std::span<const DeviceBuffer> buffers,
                        const RunOptions &options,
                        std::vector<KernelTiming> *timings) const {
  const std::vector<BufferDesc> &descs = manifest_.buffers;
  if (options.poison) {
    // The poison pattern (all bytes 0xff) is a NaN in every element type,
    // and Compare recognises it in results as "never written".
    uint64_t poisonBytes = 0;
    for (const BufferDesc &desc : descs)
      if (desc.role == BufferRole::kResult ||
          desc.role == BufferRole::kIntermediate)
        poisonBytes = std::max(poisonBytes, desc.bytes);
    std::vector<std::byte> poison(poisonBytes);
    poisonWithNaN(poison);
    for (size_t i = 0; i < descs.size(); ++i) {
      if (descs[i].role != BufferRole::kResult &&
          descs[i].role != BufferRole::kIntermediate)
        continue;
      UTA_TRY(backend_->upload(buffers[i],
                               std::span(poison.data(), descs[i].bytes)));
    }
  }
  return backend_->run(*executable_, buffers, timings);
}
