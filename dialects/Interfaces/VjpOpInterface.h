//===- VjpOpInterface.h - An op's vector-Jacobian product -------*- C++ -*-===//
//
// The VjpOpInterface declared in VjpOpInterface.td, shared by the uta and
// clifford dialects.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_INTERFACES_VJPOPINTERFACE_H
#define UTA_DIALECTS_INTERFACES_VJPOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include "dialects/Interfaces/VjpOpInterface.h.inc"

#endif // UTA_DIALECTS_INTERFACES_VJPOPINTERFACE_H
