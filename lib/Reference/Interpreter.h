//===- Interpreter.h - Float64 interpreter of uta programs ------*- C++ -*-===//
//
// Runs a func.func of `uta` and `clifford` ops in float64 with the kernels of
// Kernels.h and CliffordKernels.h: the oracle that every execution test
// compares a backend with.
//
// Numerics: every value is a double. Arguments are first rounded to their
// declared element type (f32, f16 or bf16; a no-op for values that already
// are), so the oracle sees exactly the inputs a device sees. After that
// nothing is rounded except by `uta.cast`: an f16 or bf16 op computes the
// exact float64 result, which the tolerances of the f16/bf16 checks absorb.
//
// Memory: a value is freed after its last use, so a chain needs memory for
// its live values only. Before anything is allocated, the peak that this
// implies is computed from the types and checked against a budget
// (MemoryBudget.h; default 4 GiB, docs/tools.md); a graph over it is
// refused at the op where the peak is reached, never left to die of an
// allocation failure.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_REFERENCE_INTERPRETER_H
#define UTA_LIB_REFERENCE_INTERPRETER_H

#include "lib/Reference/Kernels.h"
#include "lib/Reference/MemoryBudget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::uta::reference {

/// Limits of one interpretation.
struct InterpretOptions {
  /// The most bytes of float64 tensor values held at once: the arguments as
  /// given (the caller holds them throughout), the values still to be read,
  /// and the result being computed.
  uint64_t memoryBudget = kDefaultMemoryBudget;
};

/// What an interpretation measured.
struct InterpretStats {
  /// The most bytes of float64 tensor values held at once, counted as
  /// InterpretOptions::memoryBudget is, from the tensors actually held.
  uint64_t peakBytes = 0;
};

/// Interprets `func` on `args` (one per function argument, with the shape of
/// its tensor type; values are rounded to the element type first) and
/// returns one tensor per result. The body must be one block of
/// arith.constant, uta and clifford ops ending in func.return. Any other op,
/// a shape that does not match its type, or a kernel error is reported with
/// emitError at the offending op (or at `func` for argument mismatches), and
/// the result is failure(). checkMemoryBudget runs first: a graph over
/// `options.memoryBudget` is refused before anything is allocated. `stats`,
/// when given, receives the measured peak.
FailureOr<std::vector<RefTensor>>
interpret(func::FuncOp func, ArrayRef<RefTensor> args,
          const InterpretOptions &options = {},
          InterpretStats *stats = nullptr);

/// Whether the interpreter has a kernel for ops named `name`.
bool hasReferenceKernel(OperationName name);

/// The float format of `type` (f64, f32, f16 or bf16), or nullopt for any
/// other type.
std::optional<FloatFormat> floatFormatOf(Type type);

/// The exact values of a dense (splat or not) or dense_resource float
/// attribute of static shape, or failure after emitting an error at `loc`.
FailureOr<RefTensor> tensorFromAttr(ElementsAttr attr, Location loc);

} // namespace mlir::uta::reference

#endif // UTA_LIB_REFERENCE_INTERPRETER_H
