//===- WorkgroupMemory.cpp - Shared memory of kernels for SPIR-V ----------===//
//
// Kernels that cooperate through shared memory (reductions) declare it as
// workgroup attributions of their gpu.func. The SPIR-V lowering takes shared
// memory only as a memref.alloc in the Workgroup storage class, so the
// attributions become allocations and every GPU address space becomes the
// SPIR-V storage class it stands for.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/Builders.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVMAPWORKGROUPMEMORYPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

/// `type` with a GPU workgroup or private memory space turned into the
/// SPIR-V storage class; other types unchanged.
static Type mapMemorySpace(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return type;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  if (!space)
    return type;
  spirv::StorageClass storage = spirv::StorageClass::StorageBuffer;
  switch (space.getValue()) {
  case gpu::AddressSpace::Workgroup:
    storage = spirv::StorageClass::Workgroup;
    break;
  case gpu::AddressSpace::Private:
    storage = spirv::StorageClass::Function;
    break;
  case gpu::AddressSpace::Global:
    storage = spirv::StorageClass::StorageBuffer;
    break;
  }
  return MemRefType::get(
      memref.getShape(), memref.getElementType(), memref.getLayout(),
      spirv::StorageClassAttr::get(type.getContext(), storage));
}

/// Replaces the workgroup and private attributions of `func` with
/// allocations at the top of its body.
static void replaceAttributions(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  SmallVector<unsigned> erase;
  for (BlockArgument arg : func.getWorkgroupAttributions()) {
    auto alloc = memref::AllocOp::create(builder, arg.getLoc(),
                                         cast<MemRefType>(arg.getType()));
    arg.replaceAllUsesWith(alloc.getResult());
    erase.push_back(arg.getArgNumber());
  }
  for (BlockArgument arg : func.getPrivateAttributions()) {
    auto alloca = memref::AllocaOp::create(builder, arg.getLoc(),
                                           cast<MemRefType>(arg.getType()));
    arg.replaceAllUsesWith(alloca.getResult());
    erase.push_back(arg.getArgNumber());
  }
  if (erase.empty())
    return;
  llvm::BitVector mask(entry.getNumArguments());
  for (unsigned index : erase)
    mask.set(index);
  entry.eraseArguments(mask);
  func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                builder.getI64IntegerAttr(0));
  // Private attributions have no count attribute: they are the block
  // arguments after the inputs and the workgroup attributions.
}

namespace {
struct UTASPIRVMapWorkgroupMemoryPass final
    : uta::impl::UTASPIRVMapWorkgroupMemoryPassBase<
          UTASPIRVMapWorkgroupMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      replaceAttributions(func);
    getOperation().walk([](Operation *op) {
      for (OpResult result : op->getResults())
        result.setType(mapMemorySpace(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(mapMemorySpace(arg.getType()));
    });
  }
};
} // namespace
