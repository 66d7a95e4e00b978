//===- AttachTarget.cpp - The Vulkan SPIR-V target of the kernels ---------===//
//
// Attaches what convert-gpu-to-spirv needs to know about the target (the
// target environment, each kernel's workgroup size and the descriptor
// binding of each argument) and rejects what SPIR-V cannot express (bf16).
// The bindings set here are the ABI that the manifest describes.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVATTACHTARGETPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
/// The 16-bit float types that ops and block arguments of `root` use.
struct HalfUses {
  Operation *firstBF16 = nullptr;
  bool usesF16 = false;
};
} // namespace

static HalfUses findHalfUses(Operation *root) {
  HalfUses uses;
  auto visit = [&](Type type, Operation *at) {
    Type element = getElementTypeOrSelf(type);
    if (element.isBF16() && !uses.firstBF16)
      uses.firstBF16 = at;
    uses.usesF16 |= element.isF16();
  };
  root->walk([&](Operation *op) {
    for (Type type : op->getOperandTypes())
      visit(type, op);
    for (Type type : op->getResultTypes())
      visit(type, op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          visit(arg.getType(), op);
  });
  return uses;
}

/// Vulkan, SPIR-V 1.3 at most (Vulkan 1.1); 16-bit storage only when needed.
static spirv::TargetEnvAttr getVulkanTargetEnv(MLIRContext *context,
                                               bool usesF16) {
  SmallVector<spirv::Capability> caps = {spirv::Capability::Shader};
  SmallVector<spirv::Extension> exts = {
      spirv::Extension::SPV_KHR_storage_buffer_storage_class};
  if (usesF16) {
    caps.push_back(spirv::Capability::Float16);
    caps.push_back(spirv::Capability::StorageBuffer16BitAccess);
    exts.push_back(spirv::Extension::SPV_KHR_16bit_storage);
  }
  auto vce =
      spirv::VerCapExtAttr::get(spirv::Version::V_1_3, caps, exts, context);
  return spirv::TargetEnvAttr::get(
      vce, spirv::getDefaultResourceLimits(context), spirv::ClientAPI::Vulkan);
}

namespace {
struct UTASPIRVAttachTargetPass final
    : uta::impl::UTASPIRVAttachTargetPassBase<UTASPIRVAttachTargetPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    bool usesF16 = false;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      HalfUses uses = findHalfUses(kernels);
      if (uses.firstBF16) {
        uses.firstBF16->emitError("bf16 is not supported by the spirv target");
        return signalPassFailure();
      }
      usesF16 |= uses.usesF16;
      for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
        if (!func.isKernel())
          continue;
        std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
        if (!block) {
          func.emitOpError("needs known_block_size for its SPIR-V workgroup "
                           "size");
          return signalPassFailure();
        }
        func->setAttr(spirv::getEntryPointABIAttrName(),
                      spirv::getEntryPointABIAttr(context, *block));
        for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
          // A SPIR-V array's length is a 32-bit constant: a longer buffer
          // would be typed with a truncated length.
          auto memref = dyn_cast<MemRefType>(func.getArgument(i).getType());
          if (memref && memref.hasStaticShape() &&
              memref.getNumElements() > int64_t(UINT32_MAX)) {
            func.emitOpError("argument ")
                << i << " has " << memref.getNumElements()
                << " elements; a SPIR-V storage buffer holds at most 2^32 - 1";
            return signalPassFailure();
          }
          // A scalar travels in its own storage buffer (Vulkan entry points
          // take no parameters); a memref's storage class comes from its
          // memory space.
          std::optional<spirv::StorageClass> storage;
          if (func.getArgument(i).getType().isIntOrIndexOrFloat())
            storage = spirv::StorageClass::StorageBuffer;
          func.setArgAttr(i, spirv::getInterfaceVarABIAttrName(),
                          spirv::getInterfaceVarABIAttr(/*descriptorSet=*/0,
                                                        /*binding=*/i, storage,
                                                        context));
        }
      }
    }
    module->setAttr(spirv::getTargetEnvAttrName(),
                    getVulkanTargetEnv(context, usesF16));
  }
};
} // namespace
