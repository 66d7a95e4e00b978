//===- ManifestWriter.h - The manifest of a compiled graph ------*- C++ -*-===//
//
// Derives the manifest (docs/manifest.md) from the host
// function that convert-uta-to-gpu leaves: its buffers, the kernels it
// launches with their ABI arguments, the launches in order, the results.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_MANIFESTWRITER_H
#define UTA_LIB_COMPILER_MANIFESTWRITER_H

#include "lib/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::uta {

/// What the manifest says about the target and the module file.
struct ManifestTarget {
  std::string target; // "ptx", "spirv", "msl"
  std::string sm;     // ptx only
  std::string moduleFileName;
  /// The kernels as the target module names them, with what each argument
  /// adds (SPIR-V binding, MSL buffer index); null or a missing kernel: the
  /// gpu.func's name, arguments by position only.
  const llvm::StringMap<TargetKernel> *kernels = nullptr;
};

/// The manifest of `host` as JSON text, or a located error on an op the
/// launch sequence cannot express.
FailureOr<std::string> writeManifest(func::FuncOp host,
                                     const ManifestTarget &target);

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_MANIFESTWRITER_H
