//===- Runtime.cpp - The C API's devices, tensors and executables ---------===//
//
// include/uta-c/Runtime.h over the C++ runtime API (include/uta/Runtime.h,
// libuta_runtime.so): every handle wraps a C++ handle, every argument is
// checked (null handles and pointers, dtypes outside the enum, ranks above
// UTA_MAX_RANK, negative sizes, element and byte counts that overflow or
// that the host cannot hold, counts of tensors) before it reaches C++, and
// every error becomes a uta_status_t with the thread's last error. Every
// entry point runs inside capi::guarded, so no C++ exception leaves it. No
// MLIR or LLVM: this is libuta_c_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "lib/CAPI/Runtime/Handles.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <span>

#include <unistd.h>

using namespace uta;

//===----------------------------------------------------------------------===//
// Errors and conversions
//===----------------------------------------------------------------------===//

namespace {
/// The calling thread's last error message.
thread_local std::string lastError;
/// Set when the last error's message could not be made (memory ran out
/// while making it); uta_last_error() then gives kLostError.
thread_local bool lastErrorLost = false;
constexpr const char *kLostError =
    "out of memory (the error's own message could not be made)";
} // namespace

uta_status_t capi::fail(uta_status_t code, std::string message) {
  lastError = std::move(message);
  lastErrorLost = false;
  return code;
}

void capi::recordException(const char *function) noexcept {
  try {
    try {
      throw;
    } catch (const std::bad_alloc &) {
      fail(UTA_INTERNAL, std::string(function) + ": out of memory");
    } catch (const std::exception &error) {
      fail(UTA_INTERNAL, std::string(function) + ": " + error.what());
    } catch (...) {
      fail(UTA_INTERNAL, std::string(function) + ": an exception that is not a "
                                                 "std::exception");
    }
  } catch (...) {
    lastErrorLost = true;
  }
}

uta_status_t capi::fail(const Status &status) {
  switch (status.code()) {
  case ErrorCode::Ok:
    return UTA_OK;
  case ErrorCode::InvalidInput:
    return fail(UTA_INVALID_INPUT, status.message());
  case ErrorCode::Unavailable:
    return fail(UTA_UNAVAILABLE, status.message());
  case ErrorCode::Internal:
    break;
  }
  return fail(UTA_INTERNAL, status.message());
}

uta_status_t capi::failNull(const char *function, const char *what) {
  return fail(UTA_INVALID_INPUT,
              std::string(function) + ": " + what + " is null");
}

bool capi::toDType(uta_dtype_t dtype, DType &out) {
  switch (dtype) {
  case UTA_F32:
    out = DType::F32;
    return true;
  case UTA_F16:
    out = DType::F16;
    return true;
  case UTA_BF16:
    out = DType::BF16;
    return true;
  default: // any other int a C caller passed
    return false;
  }
}

uta_dtype_t capi::fromDType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return UTA_F32;
  case DType::F16:
    return UTA_F16;
  case DType::BF16:
    return UTA_BF16;
  }
  return UTA_F32;
}

std::string capi::limitError(const char *function, const char *what,
                             size_t count) {
  if (count <= UTA_MAX_RANK)
    return "";
  return std::string(function) + ": " + what + " " + std::to_string(count) +
         " exceeds the maximum " + std::to_string(UTA_MAX_RANK) +
         " (UTA_MAX_RANK)";
}

bool capi::readShape(const char *function, const int64_t *shape, size_t rank,
                     std::vector<int64_t> &out) {
  // Before the array is read: a rank past the caller's array would read on.
  if (std::string error = limitError(function, "rank", rank); !error.empty()) {
    fail(UTA_INVALID_INPUT, std::move(error));
    return false;
  }
  if (rank > 0 && !shape) {
    failNull(function, "shape");
    return false;
  }
  out.assign(shape, shape + rank);
  return true;
}

/// The tensor type of a dtype and shape, checked; false with the error
/// recorded.
static bool readTensorType(const char *function, uta_dtype_t dtype,
                           const int64_t *shape, size_t rank,
                           TensorType &type) {
  if (!capi::toDType(dtype, type.dtype)) {
    capi::fail(UTA_INVALID_INPUT, std::string(function) + ": dtype " +
                                      std::to_string(int(dtype)) +
                                      " is not UTA_F32, UTA_F16 or UTA_BF16");
    return false;
  }
  if (!capi::readShape(function, shape, rank, type.shape))
    return false;
  // Sizes a binding passes through unchecked: negative ones, and products
  // past int64 (whose byte counts would wrap), are refused here.
  int64_t bytes = int64_t(dtypeSize(type.dtype));
  for (int64_t size : type.shape)
    if (size < 0 || __builtin_mul_overflow(bytes, size, &bytes)) {
      capi::fail(UTA_INVALID_INPUT, std::string(function) + ": the shape " +
                                        type.str() +
                                        " has a negative size, or more bytes "
                                        "than an int64 holds");
      return false;
    }
  return true;
}

/// The bytes of physical memory of this host: more than that, a reference
/// tensor (host memory) can never get.
static uint64_t hostMemoryBytes() {
  static const uint64_t bytes = [] {
    long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageBytes <= 0)
      return std::numeric_limits<uint64_t>::max();
    uint64_t total;
    if (__builtin_mul_overflow(uint64_t(pages), uint64_t(pageBytes), &total))
      return std::numeric_limits<uint64_t>::max();
    return total;
  }();
  return bytes;
}

extern "C" int uta_api_version(void) { return UTA_C_API_VERSION; }

extern "C" const char *uta_last_error(void) {
  return lastErrorLost ? kLostError : lastError.c_str();
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

extern "C" uta_status_t uta_device_open(const char *backend, int index,
                                        uta_device_t **device) {
  const char *function = "uta_device_open";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!backend)
      return capi::failNull(function, "backend");
    if (!device)
      return capi::failNull(function, "device");
    Expected<Device> opened = Device::open(backend, index);
    if (!opened)
      return capi::fail(opened.status());
    *device = new uta_device_t(std::move(*opened));
    return UTA_OK;
  });
}

extern "C" void uta_device_destroy(uta_device_t *device) {
  capi::guarded("uta_device_destroy", [&] { delete device; });
}

extern "C" const char *uta_device_backend(const uta_device_t *device) {
  return capi::guarded("uta_device_backend", "", [&] {
    return device ? device->device.backend().c_str() : "";
  });
}

extern "C" const char *uta_device_description(const uta_device_t *device) {
  return capi::guarded("uta_device_description", "", [&] {
    return device ? device->description.c_str() : "";
  });
}

extern "C" int uta_device_target(const uta_device_t *device,
                                 uta_target_t *target) {
  return capi::guarded("uta_device_target", 0, [&] {
    if (!device || !target || !device->device.target())
      return 0;
    *target = uta_target_t(int(*device->device.target()));
    return 1;
  });
}

extern "C" const char *uta_device_sm(const uta_device_t *device) {
  return capi::guarded("uta_device_sm", "", [&] {
    return device ? device->device.sm().c_str() : "";
  });
}

extern "C" uint64_t uta_device_cuda_stream(const uta_device_t *device) {
  return capi::guarded("uta_device_cuda_stream", uint64_t(0), [&] {
    return device ? device->device.cudaStream() : uint64_t(0);
  });
}

//===----------------------------------------------------------------------===//
// Device tensors
//===----------------------------------------------------------------------===//

extern "C" uta_status_t
uta_device_tensor_allocate(const uta_device_t *device, uta_dtype_t dtype,
                           const int64_t *shape, size_t rank,
                           uta_device_tensor_t **tensor) {
  const char *function = "uta_device_tensor_allocate";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!device)
      return capi::failNull(function, "device");
    if (!tensor)
      return capi::failNull(function, "tensor");
    TensorType type;
    if (!readTensorType(function, dtype, shape, rank, type))
      return UTA_INVALID_INPUT;
    // The reference's tensors are host memory, taken with new: what no host
    // of this size can hold is refused here rather than left to new, which
    // would throw through the C++ library (built without exceptions).
    // Vulkan and cuda ask their driver, which says no with a status.
    if (device->device.backend() == "reference" &&
        type.bytes() > hostMemoryBytes())
      return capi::fail(UTA_INVALID_INPUT,
                        std::string(function) + ": " + type.str() + " is " +
                            std::to_string(type.bytes()) +
                            " bytes, more than the " +
                            std::to_string(hostMemoryBytes()) +
                            " bytes of memory of this host");
    Expected<DeviceTensor> allocated = device->device.allocate(type);
    if (!allocated)
      return capi::fail(allocated.status());
    *tensor = new uta_device_tensor_t{std::move(*allocated)};
    return UTA_OK;
  });
}

extern "C" uta_status_t
uta_device_tensor_wrap(const uta_device_t *device, uint64_t address,
                       uta_dtype_t dtype, const int64_t *shape, size_t rank,
                       uta_device_tensor_t **tensor) {
  const char *function = "uta_device_tensor_wrap";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!device)
      return capi::failNull(function, "device");
    if (!tensor)
      return capi::failNull(function, "tensor");
    TensorType type;
    if (!readTensorType(function, dtype, shape, rank, type))
      return UTA_INVALID_INPUT;
    Expected<DeviceTensor> wrapped = device->device.wrap(address, type);
    if (!wrapped)
      return capi::fail(wrapped.status());
    *tensor = new uta_device_tensor_t{std::move(*wrapped)};
    return UTA_OK;
  });
}

extern "C" void uta_device_tensor_destroy(uta_device_tensor_t *tensor) {
  capi::guarded("uta_device_tensor_destroy", [&] { delete tensor; });
}

extern "C" uta_dtype_t
uta_device_tensor_dtype(const uta_device_tensor_t *tensor) {
  return capi::guarded("uta_device_tensor_dtype", UTA_F32, [&] {
    return tensor ? capi::fromDType(tensor->tensor.type().dtype) : UTA_F32;
  });
}

extern "C" size_t uta_device_tensor_rank(const uta_device_tensor_t *tensor) {
  return capi::guarded("uta_device_tensor_rank", size_t(0), [&] {
    return tensor ? tensor->tensor.type().shape.size() : size_t(0);
  });
}

extern "C" const int64_t *
uta_device_tensor_shape(const uta_device_tensor_t *tensor) {
  return capi::guarded(
      "uta_device_tensor_shape", static_cast<const int64_t *>(nullptr),
      [&] { return tensor ? tensor->tensor.type().shape.data() : nullptr; });
}

extern "C" uint64_t
uta_device_tensor_address(const uta_device_tensor_t *tensor) {
  return capi::guarded("uta_device_tensor_address", uint64_t(0), [&] {
    return tensor ? tensor->tensor.address() : uint64_t(0);
  });
}

/// Appends a view of `count` elements of `type.dtype` at `data`.
static void appendView(const TensorType &type, void *data, size_t count,
                       bool writable, std::vector<HostTensorView> &views) {
  // A view of no elements, whose data a C caller may leave null, still
  // gets an address: the C++ library hands it to memcpy, for which null is
  // undefined even at 0 bytes. Nothing is read or written there.
  alignas(16) static std::byte noElements[16];
  if (count == 0)
    data = noElements;
  if (type.dtype == DType::F32) {
    auto *values = static_cast<float *>(data);
    if (writable)
      views.emplace_back(std::span<float>(values, count), type.shape);
    else
      views.emplace_back(std::span<const float>(values, count), type.shape);
    return;
  }
  auto *bits = static_cast<uint16_t *>(data);
  if (writable)
    views.emplace_back(type.dtype, std::span<uint16_t>(bits, count),
                       type.shape);
  else
    views.emplace_back(type.dtype, std::span<const uint16_t>(bits, count),
                       type.shape);
}

/// Whether host memory at `data` is aligned to the elements of `dtype`: a
/// view's float or uint16_t pointer may not be misaligned (a NumPy array
/// made with np.frombuffer(..., offset=1) is). The error names `what`.
static Status hostAlignment(const std::string &what, const void *data,
                            DType dtype) {
  size_t elementBytes = dtypeSize(dtype);
  if (reinterpret_cast<uintptr_t>(data) % elementBytes == 0)
    return Status();
  return Status::error(ErrorCode::InvalidInput,
                       what + ": the memory is not aligned to its " +
                           std::to_string(elementBytes) + "-byte elements");
}

/// hostAlignment, false with the error recorded.
static bool checkHostAlignment(const std::string &what, const void *data,
                               DType dtype) {
  Status status = hostAlignment(what, data, dtype);
  if (!status)
    capi::fail(status);
  return bool(status);
}

/// A host view of `bytes` bytes at `data` for a tensor of `type`; false
/// (with the error recorded) when the sizes differ.
static bool viewBytes(const char *function, const TensorType &type,
                      const void *data, size_t bytes, bool writable,
                      std::vector<HostTensorView> &views) {
  if (bytes != type.bytes()) {
    capi::fail(UTA_INVALID_INPUT, std::string(function) + ": " + type.str() +
                                      " is " + std::to_string(type.bytes()) +
                                      " bytes, got " + std::to_string(bytes));
    return false;
  }
  if (bytes > 0 && !data) {
    capi::failNull(function, "data");
    return false;
  }
  if (!checkHostAlignment(function, data, type.dtype))
    return false;
  appendView(type, const_cast<void *>(data), size_t(type.numElements()),
             writable, views);
  return true;
}

extern "C" uta_status_t
uta_device_tensor_upload(const uta_device_tensor_t *tensor, const void *data,
                         size_t bytes) {
  const char *function = "uta_device_tensor_upload";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!tensor)
      return capi::failNull(function, "tensor");
    std::vector<HostTensorView> views;
    if (!viewBytes(function, tensor->tensor.type(), data, bytes, false, views))
      return UTA_INVALID_INPUT;
    return capi::fail(tensor->tensor.upload(views[0]));
  });
}

extern "C" uta_status_t
uta_device_tensor_download(const uta_device_tensor_t *tensor, void *data,
                           size_t bytes) {
  const char *function = "uta_device_tensor_download";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!tensor)
      return capi::failNull(function, "tensor");
    std::vector<HostTensorView> views;
    if (!viewBytes(function, tensor->tensor.type(), data, bytes, true, views))
      return UTA_INVALID_INPUT;
    return capi::fail(tensor->tensor.download(views[0]));
  });
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

extern "C" uta_status_t uta_executable_load(const uta_device_t *device,
                                            const char *manifest_path,
                                            uta_executable_t **executable) {
  const char *function = "uta_executable_load";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!device)
      return capi::failNull(function, "device");
    if (!manifest_path)
      return capi::failNull(function, "manifest_path");
    if (!executable)
      return capi::failNull(function, "executable");
    Expected<Executable> loaded =
        Executable::load(device->device, std::string(manifest_path));
    if (!loaded)
      return capi::fail(loaded.status());
    *executable = new uta_executable_t{std::move(*loaded)};
    return UTA_OK;
  });
}

extern "C" uta_status_t
uta_executable_load_memory(const uta_device_t *device, const char *manifest,
                           size_t manifest_bytes, const void *module,
                           size_t module_bytes, uta_executable_t **executable) {
  const char *function = "uta_executable_load_memory";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!device)
      return capi::failNull(function, "device");
    if (!manifest)
      return capi::failNull(function, "manifest");
    if (!module && module_bytes > 0)
      return capi::failNull(function, "module");
    if (!executable)
      return capi::failNull(function, "executable");
    Expected<Executable> loaded = Executable::load(
        device->device, std::string_view(manifest, manifest_bytes),
        std::span(static_cast<const std::byte *>(module), module_bytes));
    if (!loaded)
      return capi::fail(loaded.status());
    *executable = new uta_executable_t{std::move(*loaded)};
    return UTA_OK;
  });
}

extern "C" void uta_executable_destroy(uta_executable_t *executable) {
  capi::guarded("uta_executable_destroy", [&] { delete executable; });
}

extern "C" uta_status_t uta_executable_copy(const uta_executable_t *executable,
                                            uta_executable_t **copy) {
  const char *function = "uta_executable_copy";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!executable)
      return capi::failNull(function, "executable");
    if (!copy)
      return capi::failNull(function, "copy");
    *copy = new uta_executable_t{executable->executable};
    return UTA_OK;
  });
}

extern "C" const char *uta_executable_name(const uta_executable_t *executable) {
  return capi::guarded("uta_executable_name", "", [&] {
    return executable ? executable->executable.name().c_str() : "";
  });
}

extern "C" size_t
uta_executable_num_inputs(const uta_executable_t *executable) {
  return capi::guarded("uta_executable_num_inputs", size_t(0), [&] {
    return executable ? executable->executable.inputs().size() : size_t(0);
  });
}

extern "C" size_t
uta_executable_num_outputs(const uta_executable_t *executable) {
  return capi::guarded("uta_executable_num_outputs", size_t(0), [&] {
    return executable ? executable->executable.outputs().size() : size_t(0);
  });
}

extern "C" uint64_t
uta_executable_workspace_bytes(const uta_executable_t *executable) {
  return capi::guarded("uta_executable_workspace_bytes", uint64_t(0), [&] {
    return executable ? executable->executable.workspaceBytes() : uint64_t(0);
  });
}

extern "C" uint64_t
uta_executable_workspace_alignment(const uta_executable_t *executable) {
  return capi::guarded("uta_executable_workspace_alignment", uint64_t(1), [&] {
    return executable ? executable->executable.workspaceAlignment()
                      : uint64_t(1);
  });
}

extern "C" uta_status_t
uta_executable_tensor_type(const uta_executable_t *executable, int output,
                           size_t index, uta_dtype_t *dtype, size_t *rank,
                           const int64_t **shape) {
  const char *function = "uta_executable_tensor_type";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!executable)
      return capi::failNull(function, "executable");
    const Executable &exe = executable->executable;
    const std::vector<TensorType> &types =
        output ? exe.outputs() : exe.inputs();
    if (index >= types.size())
      return capi::fail(
          UTA_INVALID_INPUT,
          std::string(function) + ": " + (output ? "output " : "input ") +
              std::to_string(index) + " does not exist (" + exe.name() +
              " has " + std::to_string(types.size()) + ")");
    if (dtype)
      *dtype = capi::fromDType(types[index].dtype);
    if (rank)
      *rank = types[index].shape.size();
    if (shape)
      *shape = types[index].shape.data();
    return UTA_OK;
  });
}

extern "C" uta_status_t
uta_executable_device(const uta_executable_t *executable,
                      uta_device_t **device) {
  const char *function = "uta_executable_device";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!executable)
      return capi::failNull(function, "executable");
    if (!device)
      return capi::failNull(function, "device");
    *device = new uta_device_t(executable->executable.device());
    return UTA_OK;
  });
}

/// The C++ run options of `options` (may be null); `timings` collects the
/// launches when the caller asked for kernel time.
static RunOptions readRunOptions(const uta_run_options_t *options,
                                 std::vector<KernelTiming> &timings) {
  RunOptions converted;
  converted.poisonOutputs =
      options && (options->flags & UTA_RUN_POISON_OUTPUTS) != 0;
  if (options && options->kernel_milliseconds)
    converted.timings = &timings;
  return converted;
}

static void writeKernelTime(const uta_run_options_t *options,
                            const std::vector<KernelTiming> &timings) {
  if (!options || !options->kernel_milliseconds)
    return;
  double total = 0;
  for (const KernelTiming &timing : timings)
    total += timing.milliseconds;
  *options->kernel_milliseconds = total;
}

/// Whether a run gives `exe` exactly its inputs and outputs, checked before
/// the arrays are read: a count past the caller's array would read on.
/// False with the error recorded, in Executable::run's words.
static bool checkRunCounts(const char *function, const Executable &exe,
                           size_t numInputs, size_t numOutputs) {
  if (numInputs == exe.inputs().size() && numOutputs == exe.outputs().size())
    return true;
  auto plural = [](size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  capi::fail(UTA_INVALID_INPUT,
             std::string(function) + ": " + exe.name() + " takes " +
                 plural(exe.inputs().size(), "input") + " and returns " +
                 plural(exe.outputs().size(), "output") + ", got " +
                 std::to_string(numInputs) + " and " +
                 std::to_string(numOutputs));
  return false;
}

/// Host views of `tensors[0..count)`; false with the error recorded.
static bool readHostTensors(const char *what, const uta_host_tensor_t *tensors,
                            size_t count, bool writable,
                            std::vector<HostTensorView> &views) {
  if (count > 0 && !tensors) {
    capi::failNull("uta_executable_run_host", what);
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    std::string name = std::string("uta_executable_run_host: ") + what + " " +
                       std::to_string(i);
    const uta_host_tensor_t &tensor = tensors[i];
    TensorType type;
    if (!readTensorType(name.c_str(), tensor.dtype, tensor.shape, tensor.rank,
                        type))
      return false;
    // The view covers what the caller says `data` holds; Executable::run
    // compares that with the shape. Its byte count must not wrap first.
    if (tensor.num_elements >
        size_t(std::numeric_limits<ptrdiff_t>::max()) / dtypeSize(type.dtype)) {
      capi::fail(UTA_INVALID_INPUT,
                 name + ": num_elements " +
                     std::to_string(tensor.num_elements) +
                     " is more bytes than the address space holds");
      return false;
    }
    if (tensor.num_elements > 0 && !tensor.data) {
      capi::failNull(name.c_str(), "data");
      return false;
    }
    if (!checkHostAlignment(name, tensor.data, type.dtype))
      return false;
    appendView(type, tensor.data, tensor.num_elements, writable, views);
  }
  return true;
}

extern "C" uta_status_t
uta_executable_run_host(const uta_executable_t *executable,
                        const uta_host_tensor_t *inputs, size_t num_inputs,
                        const uta_host_tensor_t *outputs, size_t num_outputs,
                        const uta_run_options_t *options) {
  const char *function = "uta_executable_run_host";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!executable)
      return capi::failNull(function, "executable");
    const Executable &exe = executable->executable;
    if (!checkRunCounts(function, exe, num_inputs, num_outputs))
      return UTA_INVALID_INPUT;
    std::vector<HostTensorView> inputViews, outputViews;
    if (!readHostTensors("inputs", inputs, num_inputs, false, inputViews) ||
        !readHostTensors("outputs", outputs, num_outputs, true, outputViews))
      return UTA_INVALID_INPUT;
    std::vector<KernelTiming> timings;
    Status status =
        exe.run(inputViews, outputViews, readRunOptions(options, timings));
    if (status)
      writeKernelTime(options, timings);
    return capi::fail(status);
  });
}

/// The C++ handles of `tensors[0..count)`; false with the error recorded.
static bool readDeviceTensors(const char *what,
                              const uta_device_tensor_t *const *tensors,
                              size_t count, std::vector<DeviceTensor> &out) {
  if (count > 0 && !tensors) {
    capi::failNull("uta_executable_run_device", what);
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!tensors[i]) {
      capi::fail(UTA_INVALID_INPUT, std::string("uta_executable_run_device: ") +
                                        what + " " + std::to_string(i) +
                                        " is null");
      return false;
    }
    out.push_back(tensors[i]->tensor);
  }
  return true;
}

extern "C" uta_status_t uta_executable_run_device(
    const uta_executable_t *executable,
    const uta_device_tensor_t *const *inputs, size_t num_inputs,
    const uta_device_tensor_t *const *outputs, size_t num_outputs,
    const uta_run_options_t *options) {
  const char *function = "uta_executable_run_device";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!executable)
      return capi::failNull(function, "executable");
    const Executable &exe = executable->executable;
    if (!checkRunCounts(function, exe, num_inputs, num_outputs))
      return UTA_INVALID_INPUT;
    std::vector<DeviceTensor> inputTensors, outputTensors;
    if (!readDeviceTensors("input", inputs, num_inputs, inputTensors) ||
        !readDeviceTensors("output", outputs, num_outputs, outputTensors))
      return UTA_INVALID_INPUT;
    std::vector<KernelTiming> timings;
    Status status =
        exe.run(inputTensors, outputTensors, readRunOptions(options, timings));
    if (status)
      writeKernelTime(options, timings);
    return capi::fail(status);
  });
}

/// Runs `exe` on the memory at `inputs` and `outputs`, whose counts are
/// checked: device pointers on cuda, host pointers elsewhere.
static Status runAddresses(const char *function, const Executable &exe,
                           const uint64_t *inputs, size_t num_inputs,
                           const uint64_t *outputs, size_t num_outputs,
                           const RunOptions &runOptions) {
  Status status;
  if (exe.device().backend() == "cuda") {
    std::vector<DeviceTensor> in, out;
    auto wrapAll = [&](const uint64_t *addresses, size_t count,
                       const std::vector<TensorType> &types,
                       std::vector<DeviceTensor> &tensors) -> Status {
      for (size_t i = 0; i < count; ++i) {
        Expected<DeviceTensor> wrapped =
            exe.device().wrap(addresses[i], types[i]);
        if (!wrapped)
          return wrapped.status();
        tensors.push_back(std::move(*wrapped));
      }
      return Status();
    };
    status = wrapAll(inputs, num_inputs, exe.inputs(), in);
    if (status)
      status = wrapAll(outputs, num_outputs, exe.outputs(), out);
    if (status)
      status = exe.run(in, out, runOptions);
  } else {
    for (size_t i = 0; i < num_inputs + num_outputs; ++i) {
      bool isOutput = i >= num_inputs;
      const TensorType &type =
          isOutput ? exe.outputs()[i - num_inputs] : exe.inputs()[i];
      uint64_t address = isOutput ? outputs[i - num_inputs] : inputs[i];
      std::string what = std::string(function) + ": " +
                         (isOutput ? "output " : "input ") +
                         std::to_string(isOutput ? i - num_inputs : i);
      if (address == 0 && type.bytes() > 0)
        return Status::error(ErrorCode::InvalidInput,
                             what + " is a null pointer");
      if (Status aligned = hostAlignment(
              what, reinterpret_cast<const void *>(address), type.dtype);
          !aligned)
        return aligned;
    }
    std::vector<HostTensorView> in, out;
    for (size_t i = 0; i < num_inputs; ++i)
      appendView(exe.inputs()[i], reinterpret_cast<void *>(inputs[i]),
                 size_t(exe.inputs()[i].numElements()), false, in);
    for (size_t i = 0; i < num_outputs; ++i)
      appendView(exe.outputs()[i], reinterpret_cast<void *>(outputs[i]),
                 size_t(exe.outputs()[i].numElements()), true, out);
    status = exe.run(in, out, runOptions);
  }
  return status;
}

/// Whether the address arrays of a run by address are there and hold
/// `executable`'s counts; false with the error recorded.
static bool checkAddressArrays(const char *function,
                               const uta_executable_t *executable,
                               const uint64_t *inputs, size_t num_inputs,
                               const uint64_t *outputs, size_t num_outputs) {
  if (!executable) {
    capi::failNull(function, "executable");
    return false;
  }
  if ((num_inputs > 0 && !inputs) || (num_outputs > 0 && !outputs)) {
    capi::failNull(function, inputs ? "outputs" : "inputs");
    return false;
  }
  // Counts first: the types are read by position.
  return checkRunCounts(function, executable->executable, num_inputs,
                        num_outputs);
}

extern "C" uta_status_t
uta_executable_run_addresses(const uta_executable_t *executable,
                             const uint64_t *inputs, size_t num_inputs,
                             const uint64_t *outputs, size_t num_outputs,
                             const uta_run_options_t *options) {
  const char *function = "uta_executable_run_addresses";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!checkAddressArrays(function, executable, inputs, num_inputs, outputs,
                            num_outputs))
      return UTA_INVALID_INPUT;
    std::vector<KernelTiming> timings;
    Status status =
        runAddresses(function, executable->executable, inputs, num_inputs,
                     outputs, num_outputs, readRunOptions(options, timings));
    if (status)
      writeKernelTime(options, timings);
    return capi::fail(status);
  });
}

extern "C" uta_status_t
uta_executable_profile_addresses(const uta_executable_t *executable,
                                 const uint64_t *inputs, size_t num_inputs,
                                 const uint64_t *outputs, size_t num_outputs,
                                 uint32_t runs, char **report) {
  const char *function = "uta_executable_profile_addresses";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!report)
      return capi::failNull(function, "report");
    *report = nullptr;
    if (!checkAddressArrays(function, executable, inputs, num_inputs, outputs,
                            num_outputs))
      return UTA_INVALID_INPUT;
    if (runs < 1 || runs > 100000)
      return capi::fail(UTA_INVALID_INPUT, std::string(function) + ": runs " +
                                               std::to_string(runs) +
                                               " is outside [1, 100000]");
    const Executable &exe = executable->executable;
    // The runs after the first, which warms up, where there are more.
    std::vector<std::vector<KernelTiming>> timed;
    for (uint32_t run = 0; run < runs; ++run) {
      std::vector<KernelTiming> timings;
      RunOptions options;
      options.poisonOutputs = false;
      options.timings = &timings;
      if (Status status = runAddresses(function, exe, inputs, num_inputs,
                                       outputs, num_outputs, options);
          !status)
        return capi::fail(status);
      if (run > 0 || runs == 1)
        timed.push_back(std::move(timings));
    }
    std::string text = formatProfile(exe.device(), timed);
    *report = static_cast<char *>(std::malloc(text.size() + 1));
    if (!*report)
      return capi::fail(UTA_INTERNAL,
                        std::string(function) + ": no memory for the report");
    std::memcpy(*report, text.c_str(), text.size() + 1);
    return UTA_OK;
  });
}

extern "C" void uta_string_free(char *string) { std::free(string); }

extern "C" uta_status_t uta_executable_run_on_cuda_stream(
    const uta_executable_t *executable, const uint64_t *inputs,
    size_t num_inputs, const uint64_t *outputs, size_t num_outputs,
    uint64_t cuda_stream, uint64_t workspace, uint64_t workspace_bytes) {
  const char *function = "uta_executable_run_on_cuda_stream";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!checkAddressArrays(function, executable, inputs, num_inputs, outputs,
                            num_outputs))
      return UTA_INVALID_INPUT;
    RunOptions options;
    options.poisonOutputs = false;
    options.cudaStream = cuda_stream;
    options.workspaceAddress = workspace;
    options.workspaceBytes = workspace_bytes;
    return capi::fail(runAddresses(function, executable->executable, inputs,
                                   num_inputs, outputs, num_outputs, options));
  });
}

//===----------------------------------------------------------------------===//
// Checking results
//===----------------------------------------------------------------------===//

extern "C" void uta_fill_normal(float *values, size_t count, uint64_t seed,
                                uint64_t stream) {
  capi::guarded("uta_fill_normal", [&] {
    if (values)
      fillNormal(std::span<float>(values, count), seed, stream);
  });
}

extern "C" double uta_default_tolerance(uta_dtype_t dtype, int reduces,
                                        int fast_math) {
  return capi::guarded("uta_default_tolerance", 0.0, [&] {
    DType converted;
    if (!capi::toDType(dtype, converted))
      return 0.0;
    return defaultTolerance(converted, reduces != 0, fast_math != 0);
  });
}

extern "C" uta_status_t uta_compare(const char *name, const float *out,
                                    const float *ref, size_t count,
                                    const int64_t *shape, size_t rank,
                                    double tolerance, uta_comparison_t *result,
                                    char *report, size_t report_bytes) {
  const char *function = "uta_compare";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!result)
      return capi::failNull(function, "result");
    if (count > 0 && (!out || !ref))
      return capi::failNull(function, out ? "ref" : "out");
    std::vector<int64_t> dims;
    if (!capi::readShape(function, shape, rank, dims))
      return UTA_INVALID_INPUT;
    // Checked as readTensorType does: two negative sizes must not multiply
    // to a count that matches, nor a product wrap.
    int64_t elements = 1;
    for (int64_t size : dims)
      if (size < 0 || __builtin_mul_overflow(elements, size, &elements))
        return capi::fail(UTA_INVALID_INPUT,
                          std::string(function) +
                              ": the shape has a negative size, or more "
                              "elements than an int64 holds");
    if (uint64_t(elements) != count)
      return capi::fail(UTA_INVALID_INPUT,
                        std::string(function) + ": the shape has " +
                            std::to_string(elements) + " elements, got " +
                            std::to_string(count));
    Comparison compared =
        compare(name ? name : "result", std::span<const float>(out, count),
                std::span<const float>(ref, count), dims, tolerance);
    result->passed = compared.passed;
    result->rel_l2 = compared.relL2;
    result->max_rel = compared.maxRel;
    result->non_finite = compared.nonFinite;
    if (report && report_bytes > 0) {
      size_t length = std::min(compared.report.size(), report_bytes - 1);
      std::memcpy(report, compared.report.data(), length);
      report[length] = '\0';
    }
    return UTA_OK;
  });
}
