//===- Phase.cpp - The phases of compilation ------------------------------===//

#include "lib/Target/Phase.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::uta;
using llvm::StringRef;

std::optional<Phase> mlir::uta::parsePhase(StringRef name) {
  return llvm::StringSwitch<std::optional<Phase>>(name)
      .Case("uta", Phase::Uta)
      .Case("fused", Phase::Fused)
      .Case("gpu", Phase::Gpu)
      .Case("llvm", Phase::Llvm)
      .Case("ptx", Phase::Ptx)
      .Case("spirv", Phase::Spirv)
      .Case("msl", Phase::Msl)
      .Default(std::nullopt);
}

StringRef mlir::uta::getPhaseName(Phase phase) {
  switch (phase) {
  case Phase::Uta:
    return "uta";
  case Phase::Fused:
    return "fused";
  case Phase::Gpu:
    return "gpu";
  case Phase::Llvm:
    return "llvm";
  case Phase::Ptx:
    return "ptx";
  case Phase::Spirv:
    return "spirv";
  case Phase::Msl:
    return "msl";
  }
  llvm_unreachable("unknown phase");
}
