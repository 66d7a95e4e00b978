//===- DeduplicateKernels.cpp - Identical kernels compiled once -----------===//
//
// uta-deduplicate-kernels: kernels of one gpu.module that are the same but
// for their names become one kernel, which the launches of all of them run.
// A graph that repeats a layer outlines the same kernel once per repetition;
// merged, the target compiles, emits and loads it once, so that compile time
// follows the distinct kernels rather than the launches.
//
// Two kernels are the same when their attributes (all but the name: the
// type, launch bounds, tensor maps, ...) are equal and their bodies are:
// the same ops in the same order, each with the same attributes and
// properties, result types, regions, blocks and block argument types, and
// operands that correspond (values defined at the same place in both).
// Locations are not compared. A hash of that structure puts the candidates
// in buckets; within a bucket kernels are compared op by op, so a collision
// costs a comparison, never a wrong merge.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTADEDUPLICATEKERNELSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// A kernel flattened for comparison: its body's ops in pre-order.
struct FlatKernel {
  gpu::GPUFuncOp kernel;
  SmallVector<Operation *> ops;
  llvm::hash_code hash;
};

/// The kernel's attributes but its name, which must not count.
SmallVector<NamedAttribute> getAttrsButName(gpu::GPUFuncOp kernel) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : kernel->getAttrDictionary())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      attrs.push_back(attr);
  return attrs;
}

/// The shape of `op` without its operands: what two corresponding ops of
/// identical kernels share.
llvm::hash_code hashShape(Operation *op) {
  llvm::hash_code hash = llvm::hash_combine(
      op->getName(), op->getDiscardableAttrDictionary(), op->hashProperties(),
      op->getResultTypes(), op->getNumOperands(), op->getNumSuccessors());
  for (Region &region : op->getRegions()) {
    hash = llvm::hash_combine(hash, region.getBlocks().size());
    for (Block &block : region)
      hash = llvm::hash_combine(hash, block.getArgumentTypes());
  }
  return hash;
}

FlatKernel flatten(gpu::GPUFuncOp kernel) {
  FlatKernel flat{kernel, {}, hash_value(Type(kernel.getFunctionType()))};
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    flat.ops.push_back(op);
    flat.hash = llvm::hash_combine(flat.hash, hashShape(op));
  });
  return flat;
}

/// Pairs the values and blocks of two kernels compared in step.
class Correspondence {
public:
  /// Whether `lhs` and `rhs` have the same shape, and if so pairs the
  /// arguments and blocks of their regions. Their operands are compared by
  /// `haveCorrespondingOperands`, once every value they may use is paired.
  bool pairShapes(Operation *lhs, Operation *rhs) {
    if (lhs->getName() != rhs->getName() ||
        lhs->getDiscardableAttrDictionary() !=
            rhs->getDiscardableAttrDictionary() ||
        !lhs->getName().compareOpProperties(lhs->getPropertiesStorage(),
                                            rhs->getPropertiesStorage()) ||
        lhs->getResultTypes() != rhs->getResultTypes() ||
        lhs->getNumOperands() != rhs->getNumOperands() ||
        lhs->getNumSuccessors() != rhs->getNumSuccessors() ||
        lhs->getNumRegions() != rhs->getNumRegions())
      return false;
    for (auto [left, right] : llvm::zip(lhs->getResults(), rhs->getResults()))
      values[left] = right;
    for (auto [leftRegion, rightRegion] :
         llvm::zip(lhs->getRegions(), rhs->getRegions()))
      if (!pairBlocks(leftRegion, rightRegion))
        return false;
    return true;
  }

  bool pairBlocks(Region &lhs, Region &rhs) {
    if (lhs.getBlocks().size() != rhs.getBlocks().size())
      return false;
    for (auto [left, right] : llvm::zip(lhs, rhs)) {
      if (left.getArgumentTypes() != right.getArgumentTypes())
        return false;
      blocks[&left] = &right;
      for (auto [leftArg, rightArg] :
           llvm::zip(left.getArguments(), right.getArguments()))
        values[leftArg] = rightArg;
    }
    return true;
  }

  /// Values from outside the two kernels (none: kernels are isolated from
  /// above) or not yet paired make them differ.
  bool haveCorrespondingOperands(Operation *lhs, Operation *rhs) const {
    for (auto [left, right] : llvm::zip(lhs->getOperands(), rhs->getOperands()))
      if (values.lookup(left) != right)
        return false;
    for (auto [left, right] :
         llvm::zip(lhs->getSuccessors(), rhs->getSuccessors()))
      if (blocks.lookup(left) != right)
        return false;
    return true;
  }

private:
  llvm::DenseMap<Value, Value> values;
  llvm::DenseMap<Block *, Block *> blocks;
};

/// Whether the two kernels are the same but for their names.
bool areIdentical(const FlatKernel &lhs, const FlatKernel &rhs) {
  if (lhs.hash != rhs.hash || lhs.ops.size() != rhs.ops.size() ||
      getAttrsButName(lhs.kernel) != getAttrsButName(rhs.kernel))
    return false;
  gpu::GPUFuncOp left = lhs.kernel, right = rhs.kernel;
  Correspondence correspondence;
  if (!correspondence.pairBlocks(left.getBody(), right.getBody()))
    return false;
  // Shapes first, so that an operand defined later in the pre-order (in a
  // block that comes after its user's) is paired when operands are compared.
  for (auto [left, right] : llvm::zip(lhs.ops, rhs.ops))
    if (!correspondence.pairShapes(left, right))
      return false;
  for (auto [left, right] : llvm::zip(lhs.ops, rhs.ops))
    if (!correspondence.haveCorrespondingOperands(left, right))
      return false;
  return true;
}

struct DeduplicateKernelsPass final
    : uta::impl::UTADeduplicateKernelsPassBase<DeduplicateKernelsPass> {
  using UTADeduplicateKernelsPassBase::UTADeduplicateKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto kernels : module.getOps<gpu::GPUModuleOp>())
      deduplicate(module, kernels);
  }

  void deduplicate(ModuleOp module, gpu::GPUModuleOp kernels) {
    // Kept kernels by hash, and what each kept one replaces.
    llvm::DenseMap<llvm::hash_code, SmallVector<FlatKernel, 1>> kept;
    llvm::MapVector<gpu::GPUFuncOp, SmallVector<gpu::GPUFuncOp>> duplicates;
    llvm::DenseMap<StringAttr, StringAttr> keptName;
    for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      FlatKernel flat = flatten(kernel);
      SmallVector<FlatKernel, 1> &bucket = kept[flat.hash];
      auto same = llvm::find_if(bucket, [&](const FlatKernel &candidate) {
        return areIdentical(candidate, flat);
      });
      if (same == bucket.end()) {
        bucket.push_back(std::move(flat));
        continue;
      }
      duplicates[same->kernel].push_back(kernel);
      keptName[kernel.getNameAttr()] = same->kernel.getNameAttr();
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
