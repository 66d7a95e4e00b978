//===- IdenticalKernels.h - Kernels equal but for their names ---*- C++ -*-===//
//
// Two kernels are identical when they are the same but for their names:
// equal attributes but `sym_name` (the function type, launch bounds, tensor
// maps, argument attributes, ...), and bodies with the same ops in the same
// order, each with equal attributes and properties, result types, regions,
// blocks and block argument types, and operands that correspond (values
// defined at the same place in both). Locations do not count. Such kernels
// compute the same on the same arguments, so one of them can run the
// launches of all. This lives below the passes because two of them merge
// kernels so: convert-uta-to-gpu as it outlines them (a repeated layer is
// then emitted once), and uta-deduplicate-kernels on any module.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_IDENTICALKERNELS_H
#define UTA_PASSES_ANALYSIS_IDENTICALKERNELS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::uta {

/// The kernels seen so far, the first of each kind kept. A hash of each
/// kernel's structure buckets them, and a kernel is compared op by op with
/// the kept kernels of its bucket, so that a collision costs a comparison,
/// never a wrong answer. Kept kernels must stay as they were, and alive,
/// while this is used.
class IdenticalKernels {
public:
  /// The kept kernel identical to `kernel`, or `kernel` itself, then kept as
  /// the first of its kind.
  gpu::GPUFuncOp findOrKeep(gpu::GPUFuncOp kernel);

  /// A kernel's body ops in pre-order, and the hash of their structure.
  struct FlatKernel {
    gpu::GPUFuncOp kernel;
    SmallVector<Operation *> ops;
    llvm::hash_code hash;
  };

private:
  llvm::DenseMap<llvm::hash_code, SmallVector<FlatKernel, 1>> kept;
};

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_IDENTICALKERNELS_H
