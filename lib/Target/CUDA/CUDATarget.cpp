//===- CUDATarget.cpp - The PTX target ------------------------------------===//

#include "lib/Target/CUDA/CUDATarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::uta;

namespace {
class CUDATargetInfo final : public TargetInfo {
public:
  Target getTarget() const override { return Target::Ptx; }
  Phase getFinalPhase() const override { return Phase::Ptx; }
  bool namesSM() const override { return true; }

  /// The PTX text of the serialized gpu.binary; kernels keep their names and
  /// arguments are positional.
  FailureOr<TargetModule> emitModule(ModuleOp module) const override {
    auto binaries = module.getOps<gpu::BinaryOp>();
    if (binaries.empty())
      return module.emitError("the pipeline produced no gpu.binary");
    gpu::BinaryOp binary = *binaries.begin();
    auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
      return binary.emitError("expected the PTX assembly of the kernels");
    TargetModule emitted;
    emitted.image = object.getObject().getValue().str();
    return emitted;
  }
};
} // namespace

const TargetInfo &mlir::uta::getCUDATargetInfo() {
  static const CUDATargetInfo info;
  return info;
}
