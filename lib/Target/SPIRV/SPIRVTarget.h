//===- SPIRVTarget.h - The Vulkan SPIR-V target -----------------*- C++ -*-===//
//
// One SPIR-V binary with one entry point per kernel: the `spirv` phase
// leaves one spirv.module next to the gpu.module, not inside it, so MLIR's
// gpu-module-to-binary cannot serialize it. It is serialized here, in-process,
// and must pass the SPIRV-Tools validator for Vulkan 1.1, or nothing is
// written. The binding of each kernel argument is
// the spirv.interface_var_abi that the lowering consumed, checked against
// the descriptor bindings each entry point actually reaches.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_SPIRV_SPIRVTARGET_H
#define UTA_LIB_TARGET_SPIRV_SPIRVTARGET_H

#include "lib/Target/TargetInfo.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::uta {

/// The one entry point of the binary of a graph with no kernel (its results
/// need no computation): empty, never launched, there because a Vulkan
/// SPIR-V module needs an entry point.
inline constexpr llvm::StringLiteral kNoKernelEntryPoint = "uta_no_kernel";

/// A serialized and validated SPIR-V module and its kernels' bindings.
struct SPIRVBinary {
  llvm::SmallVector<uint32_t> words;
  llvm::StringMap<TargetKernel> kernels;
};

/// Validates the spirv.modules of `module` (past the `spirv` phase: one per
/// kernel) one by one and serializes them as one binary (merged: equal
/// symbols kept once, different ones of the same name renamed). Errors are
/// located at the kernel's op. A graph with no kernel gets a module of one
/// empty entry point, `kNoKernelEntryPoint`.
FailureOr<SPIRVBinary> serializeKernelsToSPIRV(ModuleOp module);

/// Validates `words` for Vulkan 1.1; on failure emits the validator's
/// messages at `loc`.
LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words, Location loc);

/// The disassembly of `words` (spirv-dis style, friendly names).
FailureOr<std::string> disassembleSPIRV(llvm::ArrayRef<uint32_t> words,
                                        Location loc);

const TargetInfo &getSPIRVTargetInfo();

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_SPIRV_SPIRVTARGET_H
