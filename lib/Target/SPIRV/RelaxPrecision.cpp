//===- RelaxPrecision.cpp - RelaxedPrecision transcendentals --------------===//
//
// --fast-math on SPIR-V: the transcendental GLSL.std.450 instructions get
// the RelaxedPrecision decoration, which MLIR's serializer writes for the
// `relaxed_precision` unit attribute of an op.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVRELAXPRECISIONPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
struct UTASPIRVRelaxPrecisionPass final
    : uta::impl::UTASPIRVRelaxPrecisionPassBase<UTASPIRVRelaxPrecisionPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isa<spirv::GLExpOp, spirv::GLLogOp, spirv::GLTanhOp, spirv::GLPowOp>(
              op) &&
          op->getResult(0).getType().isF32())
        op->setAttr("relaxed_precision", UnitAttr::get(op->getContext()));
    });
  }
};
} // namespace
