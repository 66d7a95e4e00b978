//===- CliffordOps.h - Ops of the clifford dialect --------------*- C++ -*-===//
//
// Declares the clifford ops (generated from CliffordOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_CLIFFORD_IR_CLIFFORDOPS_H
#define UTA_DIALECTS_CLIFFORD_IR_CLIFFORDOPS_H

#include "dialects/Clifford/IR/BladeSets.h"
#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/Clifford/IR/CliffordInterfaces.h"
#include "dialects/Interfaces/KernelOpInterface.h"
#include "dialects/Interfaces/VjpOpInterface.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Clifford/IR/CliffordEnums.h.inc"

#define GET_OP_CLASSES
#include "dialects/Clifford/IR/CliffordOps.h.inc"

#endif // UTA_DIALECTS_CLIFFORD_IR_CLIFFORDOPS_H
