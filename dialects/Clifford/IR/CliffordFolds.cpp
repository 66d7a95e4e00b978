//===- CliffordFolds.cpp - Folds of the clifford ops ----------------------===//
//
// Algebraic identities that need no analysis (reverse of reverse, ...).
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"

using namespace mlir;
using namespace mlir::uta::clifford;
