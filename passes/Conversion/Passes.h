//===- Passes.h - UTA conversion passes -------------------------*- C++ -*-===//
//
// Declares every conversion pass of passes/Conversion (from Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_PASSES_H
#define UTA_PASSES_CONVERSION_PASSES_H

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uta {

#define GEN_PASS_DECL
#include "passes/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Conversion/Passes.h.inc"

/// Whether `name` names a row of the GEMM engine's configuration tables
/// (the matmul's or fc_product's): what convert-uta-to-gpu's gemm-config
/// option accepts.
bool isGemmConfigName(llvm::StringRef name);

/// The name of the row of the engine's tables that `plan` runs;
/// std::nullopt for a plan that is no row.
std::optional<llvm::StringRef> getGemmConfigName(GemmPlanAttr plan);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_PASSES_H
