//===- CliffordDialect.cpp - The clifford dialect -------------------------===//
//
// Registers the clifford ops and attributes. Arith is loaded with the
// dialect because canonicalization can produce arith.constant zeros.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::uta::clifford;

#include "dialects/Clifford/IR/CliffordDialect.cpp.inc"

void CliffordDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Clifford/IR/CliffordOps.cpp.inc"
      >();
}
