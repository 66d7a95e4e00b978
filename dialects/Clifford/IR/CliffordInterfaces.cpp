//===- CliffordInterfaces.cpp - Interfaces of clifford ops ----------------===//

#include "dialects/Clifford/IR/CliffordInterfaces.h"

#include "dialects/Clifford/IR/CliffordInterfaces.cpp.inc"
