//===- Stats.h - Kernels and the bytes they move ----------------*- C++ -*-===//
//
// `utac --stats` and the manifest's launch costs: what each kernel of a
// compiled graph must move through device memory (each buffer it takes read
// or written once) and the arithmetic it does (`uta.flops`, by unit), from
// the host function of the `gpu` phase.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_STATS_H
#define UTA_LIB_COMPILER_STATS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::uta {

struct KernelStats {
  std::string name;
  int64_t threads = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  /// Operations by unit ("simt", "tf32", ...), from the launch's
  /// `uta.flops`.
  std::map<std::string, int64_t> flops;
};

/// What one launch moves and computes.
KernelStats getLaunchStats(gpu::LaunchFuncOp launch);

/// The launches of every host function of `module` (at phase `gpu`).
std::vector<KernelStats> collectKernelStats(ModuleOp module);

/// One line per kernel and a total line, headed by `title`.
void printKernelStats(llvm::raw_ostream &os, llvm::StringRef title,
                      llvm::ArrayRef<KernelStats> stats);

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_STATS_H
