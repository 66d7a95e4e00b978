//===- SplitKernelModules.cpp - One gpu.module per kernel -----------------===//
//
// See Passes.td. The launches are found in one walk of the module and
// re-pointed by a map from the old kernel symbol to the new one, so the pass
// is linear in the IR.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVSPLITKERNELMODULESPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
struct UTASPIRVSplitKernelModulesPass final
    : uta::impl::UTASPIRVSplitKernelModulesPassBase<
          UTASPIRVSplitKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Old kernel symbol (@module::@kernel) -> new one.
    llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> moved;
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp kernels : modules) {
      SmallVector<gpu::GPUFuncOp> funcs(kernels.getOps<gpu::GPUFuncOp>());
      bool onlyKernels =
          llvm::all_of(kernels.getBody()->getOperations(), [](Operation &op) {
            auto func = dyn_cast<gpu::GPUFuncOp>(op);
            return func && func.isKernel();
          });
      // A module of one kernel is already one: it takes the kernel's
      // location, so that errors about its SPIR-V point at the op.
      if (funcs.size() == 1 && onlyKernels)
        kernels->setLoc(funcs.front().getLoc());
      if (funcs.size() < 2 || !onlyKernels)
        continue;
      for (gpu::GPUFuncOp func : funcs) {
        auto own = cast<gpu::GPUModuleOp>(kernels->cloneWithoutRegions());
        own.getBodyRegion().emplaceBlock();
        own.setName(func.getName());
        // Errors about the kernel's SPIR-V are then located at its op, not
        // at the input module.
        own->setLoc(func.getLoc());
        // Inserting renames it where its name is taken (never, for kernel
        // names, which convert-uta-to-gpu makes unique).
        symbols.insert(own, Block::iterator(kernels));
        func->moveBefore(own.getBody(), own.getBody()->end());
        moved[SymbolRefAttr::get(
            kernels.getNameAttr(),
            {FlatSymbolRefAttr::get(func.getNameAttr())})] =
            SymbolRefAttr::get(own.getNameAttr(),
                               {FlatSymbolRefAttr::get(func.getNameAttr())});
      }
      symbols.erase(kernels);
    }
    if (moved.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (SymbolRefAttr target = moved.lookup(launch.getKernel()))
        launch.setKernelAttr(target);
    });
  }
};
} // namespace
