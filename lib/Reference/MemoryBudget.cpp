//===- MemoryBudget.cpp - The memory an interpretation takes --------------===//
//
// The peak of an interpretation from the types alone, by the rule the
// interpreter frees values by (after their last read), and the budget it
// is checked against.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/MemoryBudget.h"

#include "dialects/Interfaces/KernelOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::uta::reference;

std::optional<uint64_t> mlir::uta::reference::parseByteSize(StringRef text) {
  unsigned shift = 0;
  if (!text.empty()) {
    switch (llvm::toLower(text.back())) {
    case 'k':
      shift = 10;
      break;
    case 'm':
      shift = 20;
      break;
    case 'g':
      shift = 30;
      break;
    case 't':
      shift = 40;
      break;
    default:
      break;
    }
  }
  if (shift)
    text = text.drop_back();
  // Digits only: getAsInteger would also take a radix prefix ("0x10").
  if (text.empty() || !llvm::all_of(text, llvm::isDigit))
    return std::nullopt;
  uint64_t value = 0;
  if (text.getAsInteger(10, value) || value > (UINT64_MAX >> shift))
    return std::nullopt;
  return value << shift;
}

FailureOr<uint64_t>
mlir::uta::reference::getMemoryBudgetFromEnvironment(std::string &error) {
  const char *text = std::getenv(kMemoryBudgetVariable);
  if (!text)
    return kDefaultMemoryBudget;
  std::optional<uint64_t> budget = parseByteSize(text);
  if (!budget) {
    error = std::string(kMemoryBudgetVariable) + "='" + text +
            "' is not a size (bytes, or a number with K, M, G or T)";
    return failure();
  }
  return *budget;
}

llvm::DenseMap<Value, Operation *>
mlir::uta::reference::getLastReaders(Block &body) {
  llvm::DenseMap<Value, Operation *> lastReaders;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastReaders[operand] = &op;
  return lastReaders;
}

llvm::SmallSetVector<Value, 4> mlir::uta::reference::getDyingOperands(
    Operation *op, const llvm::DenseMap<Value, Operation *> &lastReaders) {
  llvm::SmallSetVector<Value, 4> dying;
  for (Value operand : op->getOperands())
    if (lastReaders.lookup(operand) == op)
      dying.insert(operand);
  return dying;
}

FailureOr<MemoryEstimate>
mlir::uta::reference::estimateMemory(func::FuncOp func) {
  MemoryEstimate estimate{0, func};
  // interpret() reports these itself.
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return estimate;
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, Operation *> lastReaders = getLastReaders(body);
  llvm::DenseMap<Value, int64_t> bytesOf;
  int64_t live = 0;
  // Adds the float64 bytes of `value` (a tensor held `copies` times) to the
  // live bytes; a type that is not a static tensor counts 0 (the walk
  // reports it where it meets it).
  auto hold = [&](Value value, Operation *at, int64_t copies) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    int64_t bytes = 0;
    if (type && type.hasStaticShape()) {
      std::optional<int64_t> count = getElementCount(type.getShape());
      if (!count || llvm::MulOverflow(*count, int64_t(sizeof(double)), bytes) ||
          llvm::MulOverflow(bytes, copies, bytes) ||
          llvm::AddOverflow(live, bytes, live))
        return at->emitError("reference interpreter: the float64 values of ")
               << type << " do not fit a 64-bit byte count";
    }
    bytesOf[value] = bytes / copies;
    return success();
  };
  auto notePeak = [&](Operation *at) {
    if (static_cast<uint64_t>(live) <= estimate.peakBytes)
      return;
    estimate.peakBytes = live;
    estimate.peakOp = at;
  };

  // The arguments as given (the caller's) and as bound (rounded to their
  // type); the bound ones nobody reads are freed at once.
  for (BlockArgument arg : body.getArguments())
    if (failed(hold(arg, func, 2)))
      return failure();
  notePeak(func);
  for (BlockArgument arg : body.getArguments())
    if (!lastReaders.count(arg))
      live -= bytesOf[arg];

  for (Operation &op : body) {
    if (isa<func::ReturnOp>(op)) {
      // A value returned twice is copied for all but one of its places.
      llvm::SmallPtrSet<Value, 4> returned;
      for (Value operand : op.getOperands())
        if (!returned.insert(operand).second && failed(hold(operand, &op, 1)))
          return failure();
      notePeak(&op);
      break;
    }
    for (Value result : op.getResults())
      if (failed(hold(result, &op, 1)))
        return failure();
    notePeak(&op);
    for (Value operand : getDyingOperands(&op, lastReaders))
      live -= bytesOf[operand];
    for (Value result : op.getResults())
      if (!lastReaders.count(result))
        live -= bytesOf[result];
  }
  return estimate;
}

LogicalResult mlir::uta::reference::checkMemoryBudget(func::FuncOp func,
                                                      uint64_t budget) {
  FailureOr<MemoryEstimate> estimate = estimateMemory(func);
  if (failed(estimate))
    return failure();
  if (estimate->peakBytes <= budget)
    return success();
  InFlightDiagnostic diag =
      estimate->peakOp->emitError("reference interpreter: needs ");
  diag << estimate->peakBytes << " bytes of float64 values ";
  if (estimate->peakOp == func.getOperation())
    diag << "for the arguments of @" << func.getSymName();
  else
    diag << "while computing this op (the arguments, the values still to be "
            "read and its result)";
  diag << ", over the memory budget of " << budget << " bytes ("
       << kMemoryBudgetVariable << ", or utac run's "
       << "--reference-memory-budget)";
  return diag;
}
