//===- SPIRVTarget.cpp - The Vulkan SPIR-V target -------------------------===//

#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/DenseSet.h"

#include <spirv-tools/libspirv.hpp>

#include <cstring>

using namespace mlir;
using namespace mlir::uta;

/// The validator's target: SPIR-V up to 1.3 under Vulkan 1.1 rules.
static constexpr spv_target_env kValidatorEnv = SPV_ENV_VULKAN_1_1;

LogicalResult mlir::uta::validateSPIRV(ArrayRef<uint32_t> words, Location loc) {
  spvtools::SpirvTools tools(kValidatorEnv);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &position,
                               const char *message) {
    // The validator appends the offending instruction on lines of its own;
    // a diagnostic stays on one line.
    if (!messages.empty())
      messages += "; ";
    SmallVector<StringRef> lines;
    StringRef(message).split(lines, '\n', -1, /*KeepEmpty=*/false);
    for (auto [i, line] : llvm::enumerate(lines))
      messages += (i ? " | " : "") + line.trim().str();
    messages += " (at word " + std::to_string(position.index) + ")";
  });
  if (tools.Validate(words.data(), words.size()))
    return success();
  return emitError(loc) << "the SPIR-V module fails validation for Vulkan "
                           "1.1: "
                        << messages;
}

FailureOr<std::string> mlir::uta::disassembleSPIRV(ArrayRef<uint32_t> words,
                                                   Location loc) {
  spvtools::SpirvTools tools(kValidatorEnv);
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                             SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return emitError(loc) << "could not disassemble the SPIR-V module";
  return text;
}

/// The (set, binding) pairs of the descriptor-bound globals that `func`
/// takes the address of.
static llvm::DenseSet<std::pair<uint32_t, uint32_t>>
getReachedBindings(spirv::ModuleOp spvModule, spirv::FuncOp func) {
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> bindings;
  func.walk([&](spirv::AddressOfOp addressOf) {
    auto global = spvModule.lookupSymbol<spirv::GlobalVariableOp>(
        addressOf.getVariableAttr());
    if (!global)
      return;
    std::optional<uint32_t> set = global.getDescriptorSet();
    std::optional<uint32_t> binding = global.getBinding();
    if (set && binding)
      bindings.insert({*set, *binding});
  });
  return bindings;
}

/// The kernels of `kernels` as entry points of `spvModule`, with the binding
/// of each argument.
static LogicalResult collectKernels(gpu::GPUModuleOp kernels,
                                    spirv::ModuleOp spvModule,
                                    llvm::StringMap<TargetKernel> &result) {
  llvm::DenseSet<StringRef> entryPoints;
  for (auto entry : spvModule.getOps<spirv::EntryPointOp>())
    entryPoints.insert(entry.getFn());
  for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
    if (!func.isKernel())
      continue;
    auto spvFunc = spvModule.lookupSymbol<spirv::FuncOp>(func.getName());
    if (!spvFunc || !entryPoints.contains(func.getName()))
      return func.emitOpError("has no entry point in the SPIR-V module");
    TargetKernel kernel;
    kernel.entryPoint = func.getName().str();
    llvm::DenseSet<std::pair<uint32_t, uint32_t>> declared;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto abi = func.getArgAttrOfType<spirv::InterfaceVarABIAttr>(
          i, spirv::getInterfaceVarABIAttrName());
      if (!abi)
        return func.emitOpError("argument ")
               << i << " has no " << spirv::getInterfaceVarABIAttrName();
      KernelArgSlot slot;
      slot.binding = {abi.getDescriptorSet(), abi.getBinding()};
      declared.insert(*slot.binding);
      kernel.args.push_back(slot);
    }
    // What the entry point reads and writes must be some argument's binding,
    // or the manifest would describe a different interface.
    for (std::pair<uint32_t, uint32_t> reached :
         getReachedBindings(spvModule, spvFunc))
      if (!declared.contains(reached))
        return func.emitOpError("SPIR-V entry point uses descriptor (set ")
               << reached.first << ", binding " << reached.second
               << ") that no argument has";
    result[func.getName()] = std::move(kernel);
  }
  return success();
}

FailureOr<SPIRVBinary> mlir::uta::serializeKernelsToSPIRV(ModuleOp module) {
  auto spvModules = module.getOps<spirv::ModuleOp>();
  if (spvModules.empty())
    return module.emitError("the pipeline produced no spirv.module");
  if (std::next(spvModules.begin()) != spvModules.end())
    return module.emitError("expected one spirv.module with every kernel");
  spirv::ModuleOp spvModule = *spvModules.begin();

  SPIRVBinary binary;
  for (auto kernels : module.getOps<gpu::GPUModuleOp>())
    if (failed(collectKernels(kernels, spvModule, binary.kernels)))
      return failure();
  if (failed(spirv::serialize(spvModule, binary.words)))
    return failure();
  if (failed(validateSPIRV(binary.words, spvModule.getLoc())))
    return failure();
  return binary;
}

namespace {
class SPIRVTargetInfo final : public TargetInfo {
public:
  Target getTarget() const override { return Target::Spirv; }
  Phase getFinalPhase() const override { return Phase::Spirv; }

  FailureOr<TargetModule> emitModule(ModuleOp module) const override {
    FailureOr<SPIRVBinary> binary = serializeKernelsToSPIRV(module);
    if (failed(binary))
      return failure();
    TargetModule emitted;
    // The module file is the words in the host's (little-endian) order, as
    // Vulkan and spirv-val read them.
    emitted.image.resize(binary->words.size() * sizeof(uint32_t));
    std::memcpy(emitted.image.data(), binary->words.data(),
                emitted.image.size());
    emitted.kernels = std::move(binary->kernels);
    return emitted;
  }

  FailureOr<std::string>
  printModule(ModuleOp module, const TargetModule &emitted) const override {
    SmallVector<uint32_t> words(emitted.image.size() / sizeof(uint32_t));
    std::memcpy(words.data(), emitted.image.data(),
                words.size() * sizeof(uint32_t));
    return disassembleSPIRV(words, module.getLoc());
  }
};
} // namespace

const TargetInfo &mlir::uta::getSPIRVTargetInfo() {
  static const SPIRVTargetInfo info;
  return info;
}
