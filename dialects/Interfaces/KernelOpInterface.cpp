//===- KernelOpInterface.cpp - What kernels know of an op -----------------===//

#include "dialects/Interfaces/KernelOpInterface.h"

using namespace mlir;
using namespace mlir::uta;

#include "dialects/Interfaces/KernelOpInterface.cpp.inc"

StringRef mlir::uta::stringifyFusionClass(FusionClass fusionClass) {
  switch (fusionClass) {
  case FusionClass::Pointwise:
    return "pointwise";
  case FusionClass::Anchor:
    return "anchor";
  case FusionClass::Bladewise:
    return "bladewise";
  case FusionClass::Opaque:
    return "opaque";
  }
  llvm_unreachable("unknown fusion class");
}

FusionClass mlir::uta::getFusionClass(Operation *op) {
  if (auto kernelOp = dyn_cast<KernelOpInterface>(op))
    return kernelOp.getFusionClass();
  return FusionClass::Opaque;
}

bool mlir::uta::sumsManyTerms(Operation *op) {
  auto kernelOp = dyn_cast<KernelOpInterface>(op);
  return kernelOp && kernelOp.getFusionClass() != FusionClass::Pointwise;
}
