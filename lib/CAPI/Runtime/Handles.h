//===- Handles.h - What stands behind the C API's handles -------*- C++ -*-===//
//
// The structs behind the opaque handles of include/uta-c (each wraps one
// handle of the C++ API) and the helpers both C libraries use to turn a
// uta::Status into a uta_status_t and the thread's last error. Internal:
// shared by libuta_c_runtime.so, which defines the helpers, and libuta_c.so,
// which calls them, so that uta_last_error() sees the errors of both.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_CAPI_RUNTIME_HANDLES_H
#define UTA_LIB_CAPI_RUNTIME_HANDLES_H

#include "uta-c/Runtime.h"
#include "uta/Runtime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

struct uta_device_t {
  explicit uta_device_t(uta::Device device)
      : device(std::move(device)), description(this->device.description()) {}
  uta::Device device;
  /// What uta_device_description returns (Device::description() makes a
  /// new string on each call).
  std::string description;
};

struct uta_device_tensor_t {
  uta::DeviceTensor tensor;
};

struct uta_executable_t {
  uta::Executable executable;
};

namespace uta::capi {

/// Records `message` as the thread's last error and returns `code`.
uta_status_t fail(uta_status_t code, std::string message);
/// The same for an error Status (UTA_OK for success, recording nothing).
uta_status_t fail(const Status &status);
/// UTA_INVALID_INPUT: "`function`: `what` is null".
uta_status_t failNull(const char *function, const char *what);

/// Reads a C dtype; false for a value outside the enum.
bool toDType(uta_dtype_t dtype, DType &out);
uta_dtype_t fromDType(DType dtype);

/// `shape[0..rank)` as a vector; an empty one for rank 0, even when `shape`
/// is null. False (with the error recorded) for a null shape of rank > 0.
bool readShape(const char *function, const int64_t *shape, size_t rank,
               std::vector<int64_t> &out);

} // namespace uta::capi

#endif // UTA_LIB_CAPI_RUNTIME_HANDLES_H
