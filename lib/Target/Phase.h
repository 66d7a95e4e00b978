//===- Phase.h - The phases of compilation ----------------------*- C++ -*-===//
//
// The phases a program goes through (docs/phases.md), by name: what
// `utac --compile-to` and the targets' TargetInfo speak of. lib/Pipelines
// builds each phase's pass pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_TARGET_PHASE_H
#define UTA_LIB_TARGET_PHASE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::uta {

/// The phases, in order. Target phases only follow `Gpu`: `Llvm` then `Ptx`
/// for CUDA; `Spirv` for Vulkan, whose program `Msl` shares (SPIRV-Cross
/// makes the MSL from the SPIR-V, outside the pass pipeline).
enum class Phase { Uta, Fused, Gpu, Llvm, Ptx, Spirv, Msl };

/// The phase called `name` (`uta`, `fused`, `gpu`, `llvm`, `ptx`, `spirv`,
/// `msl`).
std::optional<Phase> parsePhase(llvm::StringRef name);
llvm::StringRef getPhaseName(Phase phase);

} // namespace mlir::uta

#endif // UTA_LIB_TARGET_PHASE_H
