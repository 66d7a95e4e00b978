//===- UTAOps.h - Ops of the uta dialect ------------------------*- C++ -*-===//
//
// Declares the uta ops (generated from UTAOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_UTA_IR_UTAOPS_H
#define UTA_DIALECTS_UTA_IR_UTAOPS_H

#include "dialects/Interfaces/KernelOpInterface.h"
#include "dialects/Interfaces/VjpOpInterface.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/UTA/IR/UTAOps.h.inc"

#endif // UTA_DIALECTS_UTA_IR_UTAOPS_H
