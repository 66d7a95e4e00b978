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

class GradeAnalysis;

#define GEN_PASS_DECL
#include "passes/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Transforms/Passes.h.inc"

/// The rewrites of clifford-simplify-grades: projections onto known grades,
/// provably zero results, and the operand blade sets of products. The
/// patterns ask `analysis`, which must outlive them and be told when ops are
/// erased (GradeAnalysis::forget).
void populateCliffordSimplifyGradesPatterns(RewritePatternSet &patterns,
                                            GradeAnalysis &analysis);

} // namespace mlir::uta

#endif // UTA_PASSES_TRANSFORMS_PASSES_H
