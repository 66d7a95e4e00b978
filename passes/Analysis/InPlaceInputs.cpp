//===- InPlaceInputs.cpp - Inputs a result may overwrite ------------------===//

#include "passes/Analysis/InPlaceInputs.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace mlir;

namespace {

/// One element (or vector) load or store of a buffer.
struct Access {
  Operation *op;
  ValueRange indices;
  Type type;
};

/// The loads (`stores` false) or stores of `buffer`, when they are all it
/// is used for.
std::optional<SmallVector<Access>> collectAccesses(Value buffer, bool stores) {
  SmallVector<Access> accesses;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (!stores) {
      if (auto load = dyn_cast<memref::LoadOp>(user))
        accesses.push_back({user, load.getIndices(), load.getType()});
      else if (auto load = dyn_cast<vector::LoadOp>(user))
        accesses.push_back({user, load.getIndices(), load.getVectorType()});
      else
        return std::nullopt;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && store.getMemRef() == buffer)
      accesses.push_back(
          {user, store.getIndices(), store.getValueToStore().getType()});
    else if (auto store = dyn_cast<vector::StoreOp>(user);
             store && store.getBase() == buffer)
      accesses.push_back({user, store.getIndices(), store.getVectorType()});
    else
      return std::nullopt;
  }
  return accesses;
}

/// Whether `load` reads what `store` then writes: the same block, indices
/// and type, the load first.
bool readsBeforeWriting(const Access &load, const Access &store) {
  return load.op->getBlock() == store.op->getBlock() &&
         load.type == store.type && llvm::equal(load.indices, store.indices) &&
         load.op->isBeforeInBlock(store.op);
}

} // namespace

SmallVector<int64_t> mlir::uta::findInPlaceInputs(gpu::GPUFuncOp kernel,
                                                  unsigned result) {
  SmallVector<int64_t> inputs;
  if (kernel.getBody().empty() || result >= kernel.getNumArguments())
    return inputs;
  Value output = kernel.getArgument(result);
  if (!isa<MemRefType>(output.getType()))
    return inputs;
  std::optional<SmallVector<Access>> stores =
      collectAccesses(output, /*stores=*/true);
  if (!stores || stores->empty())
    return inputs;
  for (unsigned number = 0; number < kernel.getNumArguments(); ++number) {
    Value input = kernel.getArgument(number);
    if (number == result || input.getType() != output.getType())
      continue;
    std::optional<SmallVector<Access>> loads =
        collectAccesses(input, /*stores=*/false);
    if (!loads || loads->empty())
      continue;
    auto pairedLoad = [&](const Access &load) {
      return llvm::any_of(*stores, [&](const Access &store) {
        return readsBeforeWriting(load, store);
      });
    };
    auto pairedStore = [&](const Access &store) {
      return llvm::any_of(*loads, [&](const Access &load) {
        return readsBeforeWriting(load, store);
      });
    };
    if (llvm::all_of(*loads, pairedLoad) && llvm::all_of(*stores, pairedStore))
      inputs.push_back(number);
  }
  return inputs;
}
