//===- CUDATarget.h - The PTX target ----------------------------*- C++ -*-===//
//
// PTX for the CUDA driver: the `ptx` phase leaves the kernels serialized in a
// gpu.binary, whose assembly object is the module.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_CUDA_CUDATARGET_H
#define UTA_LIB_TARGET_CUDA_CUDATARGET_H

#include "lib/Target/TargetInfo.h"

namespace mlir::uta {

const TargetInfo &getCUDATargetInfo();

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_CUDA_CUDATARGET_H
