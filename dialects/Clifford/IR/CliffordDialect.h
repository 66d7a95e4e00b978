//===- CliffordDialect.h - The clifford dialect -----------------*- C++ -*-===//
//
// Declares the clifford dialect and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_CLIFFORD_IR_CLIFFORDDIALECT_H
#define UTA_DIALECTS_CLIFFORD_IR_CLIFFORDDIALECT_H

#include "dialects/Clifford/Algebra/Algebra.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Clifford/IR/CliffordDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Clifford/IR/CliffordAttrs.h.inc"

#endif // UTA_DIALECTS_CLIFFORD_IR_CLIFFORDDIALECT_H
