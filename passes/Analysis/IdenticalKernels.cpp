//===- IdenticalKernels.cpp - Kernels that are the same but for names -----===//
//
// Kernels are compared in step, op by op in pre-order. The shapes of all
// ops come first, pairing the values each defines (results, block
// arguments), then their operands: an operand defined later in the
// pre-order, in a block after its user's, is paired by then. A value that
// pairs with nothing (one from outside a kernel: none, since kernels are
// isolated from above) makes two kernels differ.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/IdenticalKernels.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::uta;

using FlatKernel = IdenticalKernels::FlatKernel;

namespace {

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

} // namespace

gpu::GPUFuncOp IdenticalKernels::findOrKeep(gpu::GPUFuncOp kernel) {
  FlatKernel flat = flatten(kernel);
  SmallVector<FlatKernel, 1> &bucket = kept[flat.hash];
  for (const FlatKernel &candidate : bucket)
    if (areIdentical(candidate, flat))
      return candidate.kernel;
  bucket.push_back(std::move(flat));
  return kernel;
}
