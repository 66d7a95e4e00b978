//===- TestValidate.cpp - Test pass: serialize and validate SPIR-V --------===//
//
// uta-test-spirv-validate: the serializer and validator of SPIRVTarget.cpp
// on hand-written spirv.modules, for the tests of the validator's errors.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"
#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTATESTSPIRVVALIDATEPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
struct UTATestSPIRVValidatePass final
    : uta::impl::UTATestSPIRVValidatePassBase<UTATestSPIRVValidatePass> {
  void runOnOperation() override {
    for (auto spvModule : getOperation().getOps<spirv::ModuleOp>()) {
      SmallVector<uint32_t> words;
      if (failed(spirv::serialize(spvModule, words)) ||
          failed(uta::validateSPIRV(words, spvModule.getLoc())))
        return signalPassFailure();
    }
  }
};
} // namespace
