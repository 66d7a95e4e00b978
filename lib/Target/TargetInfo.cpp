//===- TargetInfo.cpp - What differs between the kernel targets -----------===//

#include "lib/Target/TargetInfo.h"

#include "lib/Target/CUDA/CUDATarget.h"
#include "lib/Target/Metal/MSLTarget.h"
#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::uta;

std::optional<Target> mlir::uta::parseTarget(StringRef name) {
  return llvm::StringSwitch<std::optional<Target>>(name)
      .Case("ptx", Target::Ptx)
      .Case("spirv", Target::Spirv)
      .Case("msl", Target::Msl)
      .Default(std::nullopt);
}

StringRef mlir::uta::getTargetName(Target target) {
  switch (target) {
  case Target::Ptx:
    return "ptx";
  case Target::Spirv:
    return "spirv";
  case Target::Msl:
    return "msl";
  }
  llvm_unreachable("unknown target");
}

std::optional<Target> mlir::uta::getTargetOfPhase(Phase phase) {
  switch (phase) {
  case Phase::Uta:
  case Phase::Fused:
  case Phase::Gpu:
  case Phase::Llvm:
    return std::nullopt;
  case Phase::Ptx:
    return Target::Ptx;
  case Phase::Spirv:
    return Target::Spirv;
  case Phase::Msl:
    return Target::Msl;
  }
  llvm_unreachable("unknown phase");
}

TargetInfo::~TargetInfo() = default;

FailureOr<std::string>
TargetInfo::printModule(ModuleOp, const TargetModule &emitted) const {
  return emitted.image;
}

const TargetInfo &mlir::uta::getTargetInfo(Target target) {
  switch (target) {
  case Target::Ptx:
    return getCUDATargetInfo();
  case Target::Spirv:
    return getSPIRVTargetInfo();
  case Target::Msl:
    return getMSLTargetInfo();
  }
  llvm_unreachable("unknown target");
}
