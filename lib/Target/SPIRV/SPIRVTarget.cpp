//===- SPIRVTarget.cpp - The Vulkan SPIR-V target -------------------------===//

#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <memory>
#include <vector>

using namespace mlir;
using namespace mlir::uta;

/// The validator's target: SPIR-V up to 1.3 under Vulkan 1.1 rules.
static constexpr spv_target_env kValidatorEnv = SPV_ENV_VULKAN_1_1;

/// The validator's messages on `words`, or nullopt when they are valid.
static std::optional<std::string>
getValidationErrors(ArrayRef<uint32_t> words) {
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
    return std::nullopt;
  return messages;
}

LogicalResult mlir::uta::validateSPIRV(ArrayRef<uint32_t> words, Location loc) {
  std::optional<std::string> errors = getValidationErrors(words);
  if (!errors)
    return success();
  return emitError(loc) << "the SPIR-V module fails validation for Vulkan "
                           "1.1: "
                        << *errors;
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
/// takes the address of. `spvSymbols` is the symbol table of `func`'s
/// spirv.module: one hash lookup per use (a lookup on the module itself
/// scans it).
static llvm::DenseSet<std::pair<uint32_t, uint32_t>>
getReachedBindings(const SymbolTable &spvSymbols, spirv::FuncOp func) {
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> bindings;
  func.walk([&](spirv::AddressOfOp addressOf) {
    auto global = spvSymbols.lookup<spirv::GlobalVariableOp>(
        addressOf.getVariableAttr().getAttr());
    if (!global)
      return;
    std::optional<uint32_t> set = global.getDescriptorSet();
    std::optional<uint32_t> binding = global.getBinding();
    if (set && binding)
      bindings.insert({*set, *binding});
  });
  return bindings;
}

namespace {
/// Where each entry point of the spirv.modules is: its function and the
/// symbol table of its module.
class EntryPointIndex {
public:
  explicit EntryPointIndex(ArrayRef<spirv::ModuleOp> modules) {
    for (spirv::ModuleOp module : modules) {
      tables.push_back(std::make_unique<SymbolTable>(module));
      for (auto entry : module.getOps<spirv::EntryPointOp>())
        if (auto func = tables.back()->lookup<spirv::FuncOp>(entry.getFn()))
          entryPoints[entry.getFn()] = {func, tables.back().get()};
    }
  }
  /// The function of entry point `name` and its module's symbol table, or
  /// nullopt.
  std::optional<std::pair<spirv::FuncOp, const SymbolTable *>>
  lookup(StringRef name) const {
    auto it = entryPoints.find(name);
    if (it == entryPoints.end())
      return std::nullopt;
    return it->second;
  }

private:
  std::vector<std::unique_ptr<SymbolTable>> tables;
  llvm::StringMap<std::pair<spirv::FuncOp, const SymbolTable *>> entryPoints;
};
} // namespace

/// The kernels of `kernels` as entry points of the spirv.modules, with the
/// binding of each argument.
static LogicalResult collectKernels(gpu::GPUModuleOp kernels,
                                    const EntryPointIndex &index,
                                    llvm::StringMap<TargetKernel> &result) {
  for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
    if (!func.isKernel())
      continue;
    std::optional<std::pair<spirv::FuncOp, const SymbolTable *>> entry =
        index.lookup(func.getName());
    if (!entry)
      return func.emitOpError("has no entry point in the SPIR-V modules");
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
         getReachedBindings(*entry->second, entry->first))
      if (!declared.contains(reached))
        return func.emitOpError("SPIR-V entry point uses descriptor (set ")
               << reached.first << ", binding " << reached.second
               << ") that no argument has";
    result[func.getName()] = std::move(kernel);
  }
  return success();
}

/// The version, capabilities and extensions of every module in `modules`:
/// the highest version, and the union of the rest.
static spirv::VerCapExtAttr mergeVCE(ArrayRef<spirv::ModuleOp> modules) {
  spirv::Version version = spirv::Version::V_1_0;
  llvm::SetVector<spirv::Capability> capabilities;
  llvm::SetVector<spirv::Extension> extensions;
  for (spirv::ModuleOp module : modules) {
    std::optional<spirv::VerCapExtAttr> vce = module.getVceTriple();
    if (!vce)
      continue;
    version = std::max(version, vce->getVersion());
    for (spirv::Capability capability : vce->getCapabilities())
      capabilities.insert(capability);
    for (spirv::Extension extension : vce->getExtensions())
      extensions.insert(extension);
  }
  return spirv::VerCapExtAttr::get(version, capabilities.getArrayRef(),
                                   extensions.getArrayRef(),
                                   modules.front()->getContext());
}

/// One spirv.module with the contents of all of `modules` (one per kernel),
/// for the Vulkan binary that holds every kernel. A symbol that two modules
/// both define is kept once when the definitions are equal (the builtin
/// variables), and renamed after its module in the later one otherwise
/// (two kernels' `__workgroup_mem__0`). Each module is copied and renamed
/// on its own, so the merge is linear in the kernels.
static OwningOpRef<spirv::ModuleOp>
mergeModules(ArrayRef<spirv::ModuleOp> modules) {
  OwningOpRef<spirv::ModuleOp> merged(
      cast<spirv::ModuleOp>(modules.front()->cloneWithoutRegions()));
  Block *body = &merged->getRegion().emplaceBlock();
  merged->setVceTripleAttr(mergeVCE(modules));
  llvm::StringMap<Operation *> defined;
  for (spirv::ModuleOp module : modules) {
    OwningOpRef<spirv::ModuleOp> copy(module.clone());
    std::string suffix =
        std::string("_").append(module.getName().value_or("module"));
    SmallVector<Operation *> duplicates;
    for (Operation &op : copy->getBody()->getOperations()) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (!name)
        continue;
      auto [it, fresh] = defined.try_emplace(name.getValue(), &op);
      if (fresh)
        continue;
      if (OperationEquivalence::isEquivalentTo(
              it->second, &op, OperationEquivalence::IgnoreLocations)) {
        duplicates.push_back(&op);
        continue;
      }
      auto renamed = StringAttr::get(op.getContext(), name.getValue() + suffix);
      if (failed(SymbolTable::replaceAllSymbolUses(&op, renamed, *copy)))
        continue;
      SymbolTable::setSymbolName(&op, renamed);
      defined[renamed.getValue()] = &op;
    }
    for (Operation *op : duplicates)
      op->erase();
    body->getOperations().splice(body->end(), copy->getBody()->getOperations());
  }
  return merged;
}

/// A spirv.module with one empty GLCompute entry point, `kNoKernelEntryPoint`,
/// workgroup size 1: the binary of a graph with no kernel. Vulkan's SPIR-V
/// needs at least one entry point; the manifest lists no kernel and never
/// launches this one.
static OwningOpRef<spirv::ModuleOp> buildNoKernelModule(MLIRContext *context,
                                                        Location loc) {
  OpBuilder builder(context);
  auto vce = spirv::VerCapExtAttr::get(
      spirv::Version::V_1_0, {spirv::Capability::Shader}, {}, context);
  OwningOpRef<spirv::ModuleOp> module =
      spirv::ModuleOp::create(builder, loc, spirv::AddressingModel::Logical,
                              spirv::MemoryModel::GLSL450, vce);
  builder.setInsertionPointToStart(module->getBody());
  auto func = spirv::FuncOp::create(builder, loc, kNoKernelEntryPoint,
                                    builder.getFunctionType({}, {}));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(func.addEntryBlock());
  spirv::ReturnOp::create(builder, loc);
  builder.setInsertionPointAfter(func);
  spirv::EntryPointOp::create(builder, loc, spirv::ExecutionModel::GLCompute,
                              func, ArrayRef<Attribute>());
  spirv::ExecutionModeOp::create(builder, loc, func,
                                 spirv::ExecutionMode::LocalSize, {1, 1, 1});
  return module;
}

FailureOr<SPIRVBinary> mlir::uta::serializeKernelsToSPIRV(ModuleOp module) {
  SmallVector<spirv::ModuleOp> spvModules(module.getOps<spirv::ModuleOp>());
  SPIRVBinary binary;
  EntryPointIndex index(spvModules);
  for (auto kernels : module.getOps<gpu::GPUModuleOp>())
    if (failed(collectKernels(kernels, index, binary.kernels)))
      return failure();
  // A graph whose results need no computation (empty, or its arguments, or
  // constants) has no kernel, and the pipeline leaves at most an empty
  // spirv.module: the binary is one entry point that nothing launches,
  // located at the compiled function.
  if (binary.kernels.empty()) {
    Location loc = module.getLoc();
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic())
        loc = func.getLoc();
    OwningOpRef<spirv::ModuleOp> placeholder =
        buildNoKernelModule(module.getContext(), loc);
    if (failed(spirv::serialize(*placeholder, binary.words)) ||
        failed(validateSPIRV(binary.words, loc)))
      return failure();
    return binary;
  }
  if (spvModules.size() == 1) {
    if (failed(spirv::serialize(spvModules.front(), binary.words)) ||
        failed(validateSPIRV(binary.words, spvModules.front().getLoc())))
      return failure();
    return binary;
  }
  // Each kernel's module is validated on its own (an error is then located
  // at that kernel's op), and the merged module, their union up to
  // renaming, is not validated again as a whole: SPIRV-Tools' validator
  // takes memory superlinear in the entry points of one module (1.8 GB for
  // 5000 kernels), where the modules one by one take linear time and
  // little memory.
  for (spirv::ModuleOp spvModule : spvModules) {
    SmallVector<uint32_t> words;
    if (failed(spirv::serialize(spvModule, words)) ||
        failed(validateSPIRV(words, spvModule.getLoc())))
      return failure();
  }
  OwningOpRef<spirv::ModuleOp> merged = mergeModules(spvModules);
  if (failed(spirv::serialize(*merged, binary.words)))
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
