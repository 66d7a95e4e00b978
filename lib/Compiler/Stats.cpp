//===- Stats.cpp - Kernels and the bytes they move ------------------------===//

#include "lib/Compiler/Stats.h"

#include "dialects/UTA/IR/UTADialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;

static int64_t getBytes(MemRefType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Adds the threads and bytes of a kernel to `kernel`, from its launch
/// operands `operands`: convert-uta-to-gpu passes the inputs, then the
/// `results` result buffers, then n, then any buffers of the kernel's own
/// (KernelIO::allocateGlobalBuffer: its blocks write them and read them
/// back, counted once each way) and tensor maps.
static void addKernelStats(KernelStats &kernel, ValueRange operands,
                           int64_t results) {
  SmallVector<MemRefType> buffers, own;
  int64_t threads = 0;
  for (Value operand : operands) {
    if (auto type = dyn_cast<MemRefType>(operand.getType()))
      (threads ? own : buffers).push_back(type);
    APInt n;
    if (!threads && matchPattern(operand, m_ConstantInt(&n)))
      threads = n.getSExtValue();
  }
  kernel.threads += threads;
  size_t firstResult =
      buffers.size() - std::min<size_t>(results, buffers.size());
  for (auto [i, type] : llvm::enumerate(buffers))
    (i >= firstResult ? kernel.bytesWritten : kernel.bytesRead) +=
        getBytes(type);
  for (MemRefType type : own) {
    kernel.bytesWritten += getBytes(type);
    kernel.bytesRead += getBytes(type);
  }
}

KernelStats mlir::uta::getLaunchStats(gpu::LaunchFuncOp launch) {
  KernelStats kernel;
  kernel.name = launch.getKernelName().getValue().str();
  auto resultCounts = launch->getAttrOfType<DenseI32ArrayAttr>(
      UTADialect::getLaunchResultsAttrName());
  auto resultsOf = [&](size_t part) -> int64_t {
    return resultCounts && part < resultCounts.size() ? resultCounts[part] : 1;
  };
  // Kernels launched as one grid (uta-merge-independent-launches): each
  // part's operands in turn.
  ValueRange operands = launch.getKernelOperands();
  if (auto parts = launch->getAttrOfType<DenseI32ArrayAttr>(
          UTADialect::getLaunchPartsAttrName())) {
    for (auto [part, count] : llvm::enumerate(parts.asArrayRef())) {
      addKernelStats(kernel, operands.take_front(count), resultsOf(part));
      operands = operands.drop_front(count);
    }
  } else {
    addKernelStats(kernel, operands, resultsOf(0));
  }
  if (auto flops =
          launch->getAttrOfType<DictionaryAttr>(UTADialect::getFlopsAttrName()))
    for (NamedAttribute count : flops)
      if (auto value = dyn_cast<IntegerAttr>(count.getValue()))
        kernel.flops[count.getName().str()] += value.getInt();
  return kernel;
}

std::vector<KernelStats> mlir::uta::collectKernelStats(ModuleOp module) {
  std::vector<KernelStats> stats;
  module.walk([&](gpu::LaunchFuncOp launch) {
    stats.push_back(getLaunchStats(launch));
  });
  return stats;
}

void mlir::uta::printKernelStats(llvm::raw_ostream &os, StringRef title,
                                 ArrayRef<KernelStats> stats) {
  int64_t read = 0, written = 0;
  std::map<std::string, int64_t> flops;
  os << title << ": " << stats.size() << " kernels\n";
  // The names' column is as wide as the longest (merged launches have long
  // names), so that the numbers stay aligned.
  int nameWidth = 40;
  for (const KernelStats &kernel : stats)
    nameWidth = std::max(nameWidth, static_cast<int>(kernel.name.size()));
  for (const KernelStats &kernel : stats) {
    os << llvm::format("  %-*s %10lld threads %12lld B read %12lld B written",
                       nameWidth, kernel.name.c_str(),
                       (long long)kernel.threads, (long long)kernel.bytesRead,
                       (long long)kernel.bytesWritten);
    for (const auto &[unit, count] : kernel.flops) {
      os << llvm::format(" %14lld flop %s", (long long)count, unit.c_str());
      flops[unit] += count;
    }
    os << "\n";
    read += kernel.bytesRead;
    written += kernel.bytesWritten;
  }
  os << llvm::format("  total %lld B moved (%lld read, %lld written)",
                     (long long)(read + written), (long long)read,
                     (long long)written);
  for (const auto &[unit, count] : flops)
    os << llvm::format(", %lld flop %s", (long long)count, unit.c_str());
  os << "\n";
}
