//===- UTADialect.h - The uta dialect ---------------------------*- C++ -*-===//
//
// Declares the uta dialect class (generated from UTADialect.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_UTA_IR_UTADIALECT_H
#define UTA_DIALECTS_UTA_IR_UTADIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "dialects/UTA/IR/UTADialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/UTA/IR/UTAAttrs.h.inc"

#endif // UTA_DIALECTS_UTA_IR_UTADIALECT_H
