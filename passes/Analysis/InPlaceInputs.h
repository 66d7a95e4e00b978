//===- InPlaceInputs.h - Inputs a result may overwrite ----------*- C++ -*-===//
//
// A training step's backward adds contributions: a gate's adjoint and a
// matmul's, two gradients of one value. The addend is an intermediate of a
// whole activation's size whose last reader is the kernel that writes the
// sum, at the same element. Such an input may live in the result's memory
// (the runtime's WorkspacePlan places it there), so the two never take
// memory at once.
//
// That is safe when the kernel reads the input only at elements it then
// writes, each by the thread that writes it and before it writes it: every
// load of the input is followed, in its block, by a store of the result at
// the same indices and of the same type, every store of the result is
// preceded so by such a load, and the kernel neither loads the result nor
// touches either buffer in any other way (a TMA descriptor, a cp.async, a
// view). With one writer per element, which every UTA kernel has, no thread
// reads an element another has overwritten.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_INPLACEINPUTS_H
#define UTA_PASSES_ANALYSIS_INPLACEINPUTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::uta {

/// The argument numbers of `kernel`'s memref arguments that it reads only
/// where it writes argument `result` (as above), of the same type.
SmallVector<int64_t> findInPlaceInputs(gpu::GPUFuncOp kernel, unsigned result);

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_INPLACEINPUTS_H
