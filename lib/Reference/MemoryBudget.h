//===- MemoryBudget.h - The memory an interpretation takes ------*- C++ -*-===//
//
// The interpreter (Interpreter.h) holds each value from the op that makes
// it until its last read. What that costs at its peak is worked out here
// from the types alone, by the same rule, so that a graph over the budget
// is refused, at the op where the peak is reached, before anything is
// allocated.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_REFERENCE_MEMORYBUDGET_H
#define UTA_LIB_REFERENCE_MEMORYBUDGET_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::uta::reference {

/// The bytes of float64 values an interpretation may hold at once unless
/// told otherwise: 4 GiB.
inline constexpr uint64_t kDefaultMemoryBudget = uint64_t(4) << 30;
/// The environment variable that overrides kDefaultMemoryBudget (a size as
/// parseByteSize reads it).
inline constexpr const char *kMemoryBudgetVariable =
    "UTA_REFERENCE_MEMORY_BUDGET";

/// "123", "64K", "512M", "4G" or "1T" (powers of 1024, either case) as a
/// number of bytes; std::nullopt for anything else or a size past 2^64 - 1.
std::optional<uint64_t> parseByteSize(llvm::StringRef text);

/// The budget of UTA_REFERENCE_MEMORY_BUDGET when it is set, else
/// kDefaultMemoryBudget; failure (with a message naming the variable in
/// `error`) when it is set to something parseByteSize does not read.
FailureOr<uint64_t> getMemoryBudgetFromEnvironment(std::string &error);

/// The peak of an interpretation, worked out from the types.
struct MemoryEstimate {
  /// InterpretOptions's count at its peak.
  uint64_t peakBytes = 0;
  /// The op at which the peak is first reached: the op whose result is
  /// being computed, or the function itself when its arguments are the
  /// peak.
  Operation *peakOp = nullptr;
};

/// The peak bytes interpret() would hold for `func`, from the types alone
/// (nothing is allocated). Failure, after a located error, when a value's
/// float64 bytes do not fit 64 bits; a value that is not a statically
/// shaped tensor counts 0 (interpret() reports it where it meets it).
FailureOr<MemoryEstimate> estimateMemory(func::FuncOp func);

/// Fails, with an error at the op where the peak is reached, when running
/// `func` would hold more than `budget` bytes: what a caller checks before
/// it allocates the arguments.
LogicalResult checkMemoryBudget(func::FuncOp func, uint64_t budget);

/// The op of `body` that reads each value last; values nobody reads are
/// absent. The interpreter frees a value after that op.
llvm::DenseMap<Value, Operation *> getLastReaders(Block &body);

/// The values `op` reads for the last time, each once.
llvm::SmallSetVector<Value, 4>
getDyingOperands(Operation *op,
                 const llvm::DenseMap<Value, Operation *> &lastReaders);

} // namespace mlir::uta::reference

#endif // UTA_LIB_REFERENCE_MEMORYBUDGET_H
