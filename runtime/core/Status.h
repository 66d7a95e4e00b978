//===- Status.h - Errors of the runtime, without exceptions -----*- C++ -*-===//
//
// The runtime is built without exceptions (as all of UTA) and without LLVM, so
// it carries errors as values, in the types of the public API's
// include/uta/Error.h (plain C++, no MLIR or LLVM): Status (ok or an
// ErrorCode and a message) and Expected<T> (a value or a Status). The runtime
// and the API share them, so an error crosses from one to the other as it
// is. Messages are one line, lower-case, and say what failed and where
// ("inputs/a.npy: expected dtype float32, got <i4"). The error's code drives
// the tools' exit codes (docs/runtime.md): InvalidInput and Internal are 1,
// Unavailable is 3.
//
// Also UTA_TRY, which returns a failed Status from the enclosing function.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_STATUS_H
#define UTA_RUNTIME_CORE_STATUS_H

#include "uta/Error.h"

namespace uta::runtime {

using ::uta::ErrorCode;
using ::uta::Expected;
using ::uta::Status;

} // namespace uta::runtime

/// Evaluates `expr`, a Status, and returns it from the enclosing function
/// (which returns a Status or an Expected) when it is an error.
#define UTA_TRY(expr)                                                          \
  do {                                                                         \
    ::uta::Status utaTryStatus = (expr);                                       \
    if (!utaTryStatus.ok())                                                    \
      return utaTryStatus;                                                     \
  } while (false)

#endif // UTA_RUNTIME_CORE_STATUS_H
