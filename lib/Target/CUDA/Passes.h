//===- Passes.h - Passes of the CUDA target ---------------------*- C++ -*-===//
//
// Declares the passes of lib/Target/CUDA (from Passes.td) that the `llvm`
// phase of lib/Pipelines runs around MLIR's NVVM lowering.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_CUDA_PASSES_H
#define UTA_LIB_TARGET_CUDA_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uta {

#define GEN_PASS_DECL
#include "lib/Target/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lib/Target/CUDA/Passes.h.inc"

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_CUDA_PASSES_H
