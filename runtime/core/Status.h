//===- Status.h - Errors of the runtime, without exceptions -----*- C++ -*-===//
//
// The runtime is built without exceptions (as all of UTA) and without LLVM, so
// it carries errors in these two small types: Status (ok or a message) and
// StatusOr<T> (a value or a message). Messages are one line, lower-case, and
// say what failed and where ("inputs/a.npy: expected dtype float32, got <i4").
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_STATUS_H
#define UTA_RUNTIME_CORE_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace uta::runtime {

/// Why an operation failed; drives the tools' exit codes (docs/runtime.md).
enum class ErrorKind {
  /// Bad input: files, shapes, dtypes, options (exit code 1).
  kInvalidInput,
  /// The backend is not available here: no GPU, driver or device (exit 3).
  kUnavailable,
  /// Anything else that went wrong while running (exit 1).
  kInternal,
};

class [[nodiscard]] Status {
public:
  static Status ok() { return Status(); }
  static Status error(std::string message,
                      ErrorKind kind = ErrorKind::kInvalidInput) {
    Status status;
    status.error_ = Error{kind, std::move(message)};
    return status;
  }

  bool isOk() const { return !error_; }
  explicit operator bool() const { return isOk(); }
  const std::string &message() const {
    assert(error_ && "message() of an ok status");
    return error_->message;
  }
  ErrorKind kind() const {
    assert(error_ && "kind() of an ok status");
    return error_->kind;
  }

private:
  struct Error {
    ErrorKind kind;
    std::string message;
  };
  std::optional<Error> error_;
};

template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : value_(std::move(value)) {}
  StatusOr(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "a StatusOr needs a value or an error");
  }

  bool isOk() const { return value_.has_value(); }
  explicit operator bool() const { return isOk(); }
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
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }

private:
  std::optional<T> value_;
  Status status_ = Status::ok();
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_STATUS_H
