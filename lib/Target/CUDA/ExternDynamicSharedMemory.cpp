//===- ExternDynamicSharedMemory.cpp - Dynamic shared memory for PTX ------===//
//
// After convert-gpu-to-nvvm, the symbol of a kernel's dynamic shared memory
// is a zero-length `llvm.mlir.global internal` in address space 3, which
// the NVPTX backend demotes to a one-byte static variable. As an external
// array it becomes PTX's `.extern .shared .b8 name[]`, whose address is the
// start of the dynamic shared memory the launch sizes.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::uta {
#define GEN_PASS_DEF_EXTERNDYNAMICSHAREDMEMORYPASS
#include "lib/Target/CUDA/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
struct ExternDynamicSharedMemoryPass final
    : uta::impl::ExternDynamicSharedMemoryPassBase<
          ExternDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (!llvm::isPowerOf2_32(alignment)) {
      getOperation().emitError("alignment must be a power of two, got ")
          << alignment.getValue();
      return signalPassFailure();
    }
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() !=
              static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) ||
          !array || array.getNumElements() != 0)
        continue;
      global.setLinkage(LLVM::Linkage::External);
      // An external declaration has no initial value.
      global.removeValueAttr();
      global.setAlignment(
          std::max<uint64_t>(global.getAlignment().value_or(1), alignment));
    }
  }
};
} // namespace
