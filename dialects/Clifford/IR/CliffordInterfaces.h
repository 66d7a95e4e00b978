//===- CliffordInterfaces.h - Interfaces of clifford ops --------*- C++ -*-===//
//
// MultivectorOpInterface (generated from CliffordInterfaces.td); each op's
// implementation is in CliffordBlades.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_CLIFFORD_IR_CLIFFORDINTERFACES_H
#define UTA_DIALECTS_CLIFFORD_IR_CLIFFORDINTERFACES_H

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

#include "dialects/Clifford/IR/CliffordInterfaces.h.inc"

#endif // UTA_DIALECTS_CLIFFORD_IR_CLIFFORDINTERFACES_H
