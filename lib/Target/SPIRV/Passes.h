//===- Passes.h - Passes of the SPIR-V target -------------------*- C++ -*-===//
//
// Declares the passes of lib/Target/SPIRV (from Passes.td) that the `spirv`
// phase of lib/Pipelines runs ahead of MLIR's SPIR-V conversion.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_SPIRV_PASSES_H
#define UTA_LIB_TARGET_SPIRV_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uta {

#define GEN_PASS_DECL
#include "lib/Target/SPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lib/Target/SPIRV/Passes.h.inc"

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_SPIRV_PASSES_H
