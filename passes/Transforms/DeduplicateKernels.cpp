//===- DeduplicateKernels.cpp - Identical kernels compiled once -----------===//
//
// uta-deduplicate-kernels: kernels of one gpu.module that are the same but
// for their names become one kernel, which the launches of all of them run.
// A graph that repeats a layer outlines the same kernel once per repetition;
// merged, the target compiles, emits and loads it once, so that compile time
// follows the distinct kernels rather than the launches.
//
// What "the same" means is passes/Analysis/IdenticalKernels.h, which
// convert-uta-to-gpu also asks as it outlines kernels; this pass merges the
// kernels that become identical later (canonicalized, or merged launches of
// identical parts) and those of modules from elsewhere.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "passes/Analysis/IdenticalKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTADEDUPLICATEKERNELSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

struct DeduplicateKernelsPass final
    : uta::impl::UTADeduplicateKernelsPassBase<DeduplicateKernelsPass> {
  using UTADeduplicateKernelsPassBase::UTADeduplicateKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto kernels : module.getOps<gpu::GPUModuleOp>())
      deduplicate(module, kernels);
  }

  void deduplicate(ModuleOp module, gpu::GPUModuleOp kernels) {
    // What each kept kernel replaces.
    IdenticalKernels identical;
    llvm::MapVector<gpu::GPUFuncOp, SmallVector<gpu::GPUFuncOp>> duplicates;
    llvm::DenseMap<StringAttr, StringAttr> keptName;
    for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      gpu::GPUFuncOp same = identical.findOrKeep(kernel);
      if (same == kernel)
        continue;
      duplicates[same].push_back(kernel);
      keptName[kernel.getNameAttr()] = same.getNameAttr();
    }
    if (duplicates.empty())
      return;

    // Every reference to a duplicate, from anywhere outside the kernels'
    // module (the launches), names the kernel kept instead.
    StringAttr moduleName = kernels.getSymNameAttr();
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      if (ref.getRootReference() != moduleName ||
          ref.getNestedReferences().size() != 1)
        return std::nullopt;
      StringAttr name = keptName.lookup(ref.getLeafReference());
      if (!name)
        return std::nullopt;
      return SymbolRefAttr::get(moduleName, {FlatSymbolRefAttr::get(name)});
    });
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == kernels)
        return WalkResult::skip();
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      return WalkResult::advance();
    });

    for (auto &[kernel, same] : duplicates) {
      if (remarks)
        kernel.emitRemark()
            << "kernel '" << kernel.getName() << "' also runs the launches of "
            << same.size() << " identical kernel"
            << (same.size() > 1 ? "s" : "");
      for (gpu::GPUFuncOp duplicate : same)
        duplicate.erase();
    }
  }
};

} // namespace
