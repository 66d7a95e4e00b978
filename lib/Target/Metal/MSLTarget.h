//===- MSLTarget.h - The Metal Shading Language target ----------*- C++ -*-===//
//
// MSL from the SPIR-V of lib/Target/SPIRV through SPIRV-Cross's C API, as
// IREE does: one .metal translation unit with every kernel. SPIRV-Cross
// writes one entry point per compile, so each kernel is compiled on its own,
// from its own SPIR-V module (the `spirv` phase makes one per kernel: linear
// time in the kernels), with buffer struct types and the other file-scope
// declarations named after the kernel, so that two kernels cannot collide,
// and the outputs are joined with the shared preamble and helper
// declarations kept once. No Metal compiler exists on Linux: the text is
// checked by FileCheck tests only.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_METAL_MSLTARGET_H
#define UTA_LIB_TARGET_METAL_MSLTARGET_H

#include "lib/Target/TargetInfo.h"

namespace mlir::uta {

const TargetInfo &getMSLTargetInfo();

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_METAL_MSLTARGET_H
