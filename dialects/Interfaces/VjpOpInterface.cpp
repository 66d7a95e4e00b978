//===- VjpOpInterface.cpp - An op's vector-Jacobian product ---------------===//

#include "dialects/Interfaces/VjpOpInterface.h"

#include "dialects/Interfaces/VjpOpInterface.cpp.inc"
