//===- Handles.h - What stands behind the C API's handles -------*- C++ -*-===//
//
// The structs behind the opaque handles of include/uta-c (each wraps one
// handle of the C++ API) and the helpers both C libraries use to turn a
// uta::Status into a uta_status_t and the thread's last error, to check the
// sizes a caller passes, and to keep every C++ exception on this side of the
// C boundary (guarded). Internal: shared by libuta_c_runtime.so, which
// defines the helpers, and libuta_c.so, which calls them, so that
// uta_last_error() sees the errors of both.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_CAPI_RUNTIME_HANDLES_H
#define UTA_LIB_CAPI_RUNTIME_HANDLES_H

#include "uta-c/Runtime.h"
#include "uta/Runtime.h"

#include <cstddef>
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
/// is null. False (with the error recorded) for a rank above UTA_MAX_RANK,
/// refused before `shape` is read, and for a null shape of rank > 0.
bool readShape(const char *function, const int64_t *shape, size_t rank,
               std::vector<int64_t> &out);

/// "`function`: `what` `count` exceeds the maximum 64 (UTA_MAX_RANK)" when
/// `count` is above UTA_MAX_RANK; "" otherwise. `what` is "rank" for a
/// shape, "the number of axes" for a list of axes.
std::string limitError(const char *function, const char *what, size_t count);

/// Records the exception being handled as the thread's last error:
/// "`function`: out of memory" for std::bad_alloc, "`function`: " and what()
/// for another std::exception. Call only from a catch block. Never throws:
/// when even the message cannot be made, uta_last_error() says so in a fixed
/// text.
void recordException(const char *function) noexcept;

/// Runs `body`, the whole of a C entry point, and returns what it returns;
/// an exception it lets out (memory running out in a std::vector, a
/// std::string or `new`) is recorded by recordException and `failed`
/// returned instead: UTA_INTERNAL for a status, or the neutral value of a
/// getter (NULL, "", 0). Nothing C++ throws crosses the C boundary, where it
/// would end the caller's process in std::terminate. The C++ libraries
/// below are built without exceptions, so an exception that comes up
/// through them skips their cleanups: sizes are checked before they get
/// there (readShape, checkedBytes), and this is the last line, not the
/// first.
template <typename Result, typename Body>
Result guarded(const char *function, Result failed, Body &&body) noexcept {
  try {
    return body();
  } catch (...) {
    recordException(function);
    return failed;
  }
}

/// The same for an entry point that returns nothing (destroy, setters).
template <typename Body>
void guarded(const char *function, Body &&body) noexcept {
  try {
    body();
  } catch (...) {
    recordException(function);
  }
}

} // namespace uta::capi

#endif // UTA_LIB_CAPI_RUNTIME_HANDLES_H
