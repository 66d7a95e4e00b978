//===- ExecutableImpl.h - Behind the runtime API's handles ------*- C++ -*-===//
//
// The implementations behind uta::Device, uta::DeviceTensor and
// uta::Executable (include/uta/Runtime.h), shared by the runtime library
// (UTA::runtime, which runs manifests on the cuda and vulkan backends) and
// the compiler library (UTA::uta, whose reference executable interprets the
// graph). Internal: not installed. Everything here is inline, so the
// compiler library needs nothing from the runtime library but its public
// symbols.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_API_RUNTIME_EXECUTABLEIMPL_H
#define UTA_LIB_API_RUNTIME_EXECUTABLEIMPL_H

#include "uta/Runtime.h"

#include "runtime/core/Backend.h"
#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace uta::detail {

/// Builds handles from implementations and reads them back.
struct Access {
  template <typename Handle, typename... Args>
  static Handle make(Args &&...args) {
    return Handle(std::forward<Args>(args)...);
  }
  template <typename Handle> static const auto &impl(const Handle &handle) {
    return handle.impl_;
  }
};

inline runtime::ElementType toElementType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return runtime::ElementType::kF32;
  case DType::F16:
    return runtime::ElementType::kF16;
  case DType::BF16:
    return runtime::ElementType::kBF16;
  }
  return runtime::ElementType::kF32;
}

inline DType fromElementType(runtime::ElementType type) {
  switch (type) {
  case runtime::ElementType::kF32:
    return DType::F32;
  case runtime::ElementType::kF16:
    return DType::F16;
  case runtime::ElementType::kBF16:
    return DType::BF16;
  }
  return DType::F32;
}

/// An open backend. Immutable after Device::open; the backend itself is
/// thread-safe.
struct DeviceImpl {
  /// "cuda", "vulkan" or "reference".
  std::string backendName;
  std::string description;
  std::optional<Target> target;
  std::string sm;
  /// cuda: the backend's CUstream (Device::cudaStream); 0 elsewhere.
  uint64_t cudaStream = 0;
  /// The reference device's backend is host memory (runs nothing).
  std::unique_ptr<runtime::Backend> backend;
};

/// A buffer of a device; released when the last handle goes, unless it is
/// the caller's memory (Device::wrap).
struct DeviceTensorImpl {
  DeviceTensorImpl(std::shared_ptr<DeviceImpl> device,
                   runtime::DeviceBuffer buffer, TensorType type,
                   bool owned = true)
      : device(std::move(device)), buffer(buffer), type(std::move(type)),
        owned(owned) {}
  ~DeviceTensorImpl() {
    if (owned)
      device->backend->release(buffer);
  }
  DeviceTensorImpl(const DeviceTensorImpl &) = delete;
  DeviceTensorImpl &operator=(const DeviceTensorImpl &) = delete;

  std::shared_ptr<DeviceImpl> device;
  runtime::DeviceBuffer buffer;
  TensorType type;
  /// Whether the buffer is the backend's to release.
  bool owned;
};

/// How one kind of executable runs. Executable checks the arguments (count,
/// dtype, shape, device, writability) before calling either method, and the
/// methods must be safe to call from many threads at once.
class ExecutableImpl {
public:
  ExecutableImpl(std::string name, std::vector<TensorType> inputs,
                 std::vector<TensorType> outputs)
      : name(std::move(name)), inputs(std::move(inputs)),
        outputs(std::move(outputs)) {}
  virtual ~ExecutableImpl() = default;

  virtual Status runHost(std::span<const HostTensorView> inputs,
                         std::span<const HostTensorView> outputs,
                         const RunOptions &options) const = 0;
  /// Buffers of the executable's device, one per input and output.
  virtual Status runDevice(std::span<const runtime::DeviceBuffer> inputs,
                           std::span<const runtime::DeviceBuffer> outputs,
                           const RunOptions &options) const = 0;
  /// What Executable::workspaceBytes() and workspaceAlignment() say.
  virtual uint64_t workspaceBytes() const { return 0; }
  virtual uint64_t workspaceAlignment() const { return 1; }

  const std::string name;
  const std::vector<TensorType> inputs;
  const std::vector<TensorType> outputs;
};

} // namespace uta::detail

#endif // UTA_LIB_API_RUNTIME_EXECUTABLEIMPL_H
