//===- TensorMapArguments.cpp - Tensor maps passed by value ---------------===//
//
// Marks the tensor-map arguments of the lowered kernels (uta.tensor_maps)
// as 128-byte by-value grid constants; see the pass description.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/CUDA/Passes.h"

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::uta {
#define GEN_PASS_DEF_TENSORMAPARGUMENTSPASS
#include "lib/Target/CUDA/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

/// CUDA's CUtensorMap: 128 bytes, 64-byte aligned.
static constexpr int64_t kTensorMapWords = 16;
static constexpr int64_t kTensorMapAlignment = 64;

namespace {
struct TensorMapArgumentsPass final
    : uta::impl::TensorMapArgumentsPassBase<TensorMapArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    StringRef name = UTADialect::getTensorMapsAttrName();
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto maps = func->getAttrOfType<ArrayAttr>(name);
      if (!maps)
        continue;
      Builder b(func.getContext());
      auto descriptor =
          LLVM::LLVMArrayType::get(b.getI64Type(), kTensorMapWords);
      for (Attribute attr : maps) {
        auto map = dyn_cast<TensorMapAttr>(attr);
        unsigned argument = map ? map.getArgument() : 0;
        if (!map || argument >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[argument])) {
          func.emitError("has a tensor map ")
              << attr << " that does not name one of its pointer arguments";
          return signalPassFailure();
        }
        func.setArgAttr(argument, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(descriptor));
        func.setArgAttr(argument, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlignment));
        func.setArgAttr(argument, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      func->removeAttr(name);
    }
  }
};
} // namespace
