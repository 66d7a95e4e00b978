//===- Error.h - Errors of the UTA C++ API and runtime ----------*- C++ -*-===//
//
// The one error vocabulary of UTA's C++ API and of the runtime below it
// (runtime/core/Status.h uses these types as its own): ErrorCode says why an
// operation failed, Status is success or an error with a one-line message,
// and Expected<T> is a value or the Status saying why there is none. Errors
// are values: the libraries are built without exceptions. Part of the
// installed public API: plain C++20, no MLIR or LLVM header.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_ERROR_H
#define UTA_ERROR_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace uta {

/// Why an operation failed; drives the exit codes of utac and uta-run
/// (docs/runtime.md).
enum class ErrorCode {
  /// No error: the code of a successful Status.
  Ok,
  /// Bad input: shapes, dtypes, files, options, a graph that does not
  /// compile (exit code 1).
  InvalidInput,
  /// The backend is not available here: no driver, GPU or Vulkan device
  /// (exit code 3).
  Unavailable,
  /// Anything else that went wrong while running (exit code 1).
  Internal,
};

/// Success, or an error with a one-line message.
class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;
  static Status error(ErrorCode code, std::string message) {
    Status status;
    status.code_ = code == ErrorCode::Ok ? ErrorCode::Internal : code;
    status.message_ = std::move(message);
    return status;
  }

  bool ok() const { return code_ == ErrorCode::Ok; }
  explicit operator bool() const { return ok(); }
  ErrorCode code() const { return code_; }
  /// "" on success.
  const std::string &message() const { return message_; }

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

/// A value, or the Status saying why there is none.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  /// `status` must be an error.
  Expected(Status status) : status_(std::move(status)) {
    assert(!status_.ok() && "an Expected needs a value or an error");
    if (status_.ok())
      status_ = Status::error(ErrorCode::Internal, "no value");
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// Success when there is a value.
  const Status &status() const { return status_; }

  T &value() & {
    assert(value_ && "value() of an error");
    return *value_;
  }
  const T &value() const & {
    assert(value_ && "value() of an error");
    return *value_;
  }
  T &&value() && {
    assert(value_ && "value() of an error");
    return std::move(*value_);
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace uta

#endif // UTA_ERROR_H
