//===- Passes.h - UTA transformation passes ---------------------*- C++ -*-===//
//
// Declares every pass of passes/Transforms (from Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_TRANSFORMS_PASSES_H
#define UTA_PASSES_TRANSFORMS_PASSES_H

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uta {

#define GEN_PASS_DECL
#include "passes/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Transforms/Passes.h.inc"

} // namespace mlir::uta

#endif // UTA_PASSES_TRANSFORMS_PASSES_H
