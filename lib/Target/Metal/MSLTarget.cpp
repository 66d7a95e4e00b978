//===- MSLTarget.cpp - The Metal Shading Language target ------------------===//

#include "lib/Target/Metal/MSLTarget.h"

#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <spirv_cross/spirv_cross_c.h>

using namespace mlir;
using namespace mlir::uta;

/// MSL 2.1 (macOS 10.14, iOS 12): what every Metal 2 device runs.
static constexpr unsigned kMSLVersion = 20100;

/// The ids of the module-scope struct types, composite constants and
/// variables of `words` that carry no OpName. SPIRV-Cross names those
/// `_<id>`, which would collide between two kernels' modules (both number
/// from 1), so they are named after the kernel instead.
static SmallVector<uint32_t> getUnnamedGlobalIds(ArrayRef<uint32_t> words) {
  // The header is 5 words; then each instruction's first word holds its
  // word count (high half) and opcode (low half). Module-scope
  // declarations all come before the first OpFunction.
  llvm::DenseSet<uint32_t> named;
  SmallVector<uint32_t> globals;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    uint32_t opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size() || opcode == SpvOpFunction)
      break;
    if (opcode == SpvOpName && count >= 2)
      named.insert(words[at + 1]);
    else if (opcode == SpvOpTypeStruct && count >= 2)
      globals.push_back(words[at + 1]);
    else if ((opcode == SpvOpConstantComposite ||
              opcode == SpvOpSpecConstantComposite ||
              opcode == SpvOpVariable) &&
             count >= 3)
      globals.push_back(words[at + 2]);
    at += count;
  }
  llvm::erase_if(globals, [&](uint32_t id) { return named.contains(id); });
  return globals;
}

namespace {
/// A SPIRV-Cross context for the SPIR-V module of one kernel (the `spirv`
/// phase gives each kernel its own): parsed, then compiled once. SPIRV-Cross
/// reads the whole module it is given for every entry point it compiles, so
/// one module of every kernel would make N kernels cost N^2. The context
/// frees all it made when destroyed.
class CrossCompiler {
public:
  CrossCompiler() { spvc_context_create(&context); }
  ~CrossCompiler() {
    if (context)
      spvc_context_destroy(context);
  }
  CrossCompiler(const CrossCompiler &) = delete;
  CrossCompiler &operator=(const CrossCompiler &) = delete;

  LogicalResult parse(ArrayRef<uint32_t> words, Location loc);
  /// The MSL of entry point `kernel.entryPoint` alone, its Metal name in
  /// `mslName` and each argument's buffer index in `slots`.
  FailureOr<std::string> compileKernel(const TargetKernel &kernel,
                                       std::string &mslName,
                                       SmallVectorImpl<KernelArgSlot> &slots,
                                       Location loc);

private:
  InFlightDiagnostic fail(Location loc, StringRef what) {
    return emitError(loc) << "SPIRV-Cross: " << what << ": "
                          << spvc_context_get_last_error_string(context);
  }

  spvc_context context = nullptr;
  spvc_parsed_ir ir = nullptr;
  /// The module parsed (for the ids to name).
  ArrayRef<uint32_t> words;
};
} // namespace

LogicalResult CrossCompiler::parse(ArrayRef<uint32_t> words, Location loc) {
  this->words = words;
  if (!context)
    return emitError(loc) << "SPIRV-Cross: could not create a context";
  if (spvc_context_parse_spirv(context, words.data(), words.size(), &ir) !=
      SPVC_SUCCESS)
    return fail(loc, "cannot parse the SPIR-V module");
  return success();
}

FailureOr<std::string>
CrossCompiler::compileKernel(const TargetKernel &kernel, std::string &mslName,
                             SmallVectorImpl<KernelArgSlot> &slots,
                             Location loc) {
  const char *entry = kernel.entryPoint.c_str();
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(context, SPVC_BACKEND_MSL, ir,
                                   SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) != SPVC_SUCCESS)
    return fail(loc, "cannot create an MSL compiler");
  // Every kernel's module numbers its ids from 1: what SPIRV-Cross would
  // name `_<id>` at file scope is named after the kernel instead.
  for (uint32_t id : getUnnamedGlobalIds(words)) {
    std::string name = kernel.entryPoint + "_" + std::to_string(id);
    spvc_compiler_set_name(compiler, id, name.c_str());
  }
  if (spvc_compiler_set_entry_point(compiler, entry,
                                    SpvExecutionModelGLCompute) != SPVC_SUCCESS)
    return fail(loc, "no compute entry point ") << kernel.entryPoint;

  spvc_compiler_options options = nullptr;
  if (spvc_compiler_create_compiler_options(compiler, &options) !=
          SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_VERSION,
                                     kMSLVersion) != SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS)
    return fail(loc, "cannot set the MSL options");

  // The storage buffers this entry point uses.
  spvc_set active = nullptr;
  spvc_resources resources = nullptr;
  const spvc_reflected_resource *buffers = nullptr;
  size_t numBuffers = 0;
  if (spvc_compiler_get_active_interface_variables(compiler, &active) !=
          SPVC_SUCCESS ||
      spvc_compiler_create_shader_resources_for_active_variables(
          compiler, &resources, active) != SPVC_SUCCESS ||
      spvc_resources_get_resource_list_for_type(
          resources, SPVC_RESOURCE_TYPE_STORAGE_BUFFER, &buffers,
          &numBuffers) != SPVC_SUCCESS)
    return fail(loc, "cannot reflect the buffers of ") << kernel.entryPoint;

  // Buffer index = argument position, as CUDA's parameter order. The
  // struct type of each buffer is named after the kernel (and the first
  // binding that uses it), so that two kernels never declare one name.
  llvm::DenseSet<uint32_t> renamed;
  for (const spvc_reflected_resource &buffer :
       llvm::ArrayRef(buffers, numBuffers)) {
    unsigned set = spvc_compiler_get_decoration(compiler, buffer.id,
                                                SpvDecorationDescriptorSet);
    unsigned binding =
        spvc_compiler_get_decoration(compiler, buffer.id, SpvDecorationBinding);
    const auto *arg = llvm::find_if(kernel.args, [&](const KernelArgSlot &a) {
      return a.binding == std::pair<uint32_t, uint32_t>(set, binding);
    });
    if (arg == kernel.args.end())
      return emitError(loc)
             << "kernel " << kernel.entryPoint << " uses descriptor (set "
             << set << ", binding " << binding << ") that no argument has";
    spvc_msl_resource_binding msl;
    spvc_msl_resource_binding_init(&msl);
    msl.stage = SpvExecutionModelGLCompute;
    msl.desc_set = set;
    msl.binding = binding;
    msl.msl_buffer = unsigned(arg - kernel.args.begin());
    if (spvc_compiler_msl_add_resource_binding(compiler, &msl) != SPVC_SUCCESS)
      return fail(loc, "cannot bind a buffer of ") << kernel.entryPoint;
    if (renamed.insert(buffer.base_type_id).second) {
      std::string name =
          kernel.entryPoint + "_buffer" + std::to_string(binding) + "_t";
      spvc_compiler_set_name(compiler, buffer.base_type_id, name.c_str());
    }
  }

  const char *source = nullptr;
  if (spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS)
    return fail(loc, "cannot compile ") << kernel.entryPoint << " to MSL";
  mslName = spvc_compiler_get_cleansed_entry_point_name(
      compiler, entry, SpvExecutionModelGLCompute);
  for (auto [i, arg] : llvm::enumerate(kernel.args)) {
    KernelArgSlot slot;
    slot.bufferIndex = unsigned(i);
    slots.push_back(slot);
  }
  return std::string(source);
}

/// The declarations of one SPIRV-Cross output: the preamble (includes,
/// pragmas, `using namespace`) line by line, then each top-level declaration
/// whole (brace depth back to zero, blank line after).
struct MSLPieces {
  SmallVector<std::string> preamble;
  SmallVector<std::string> declarations;
};

static MSLPieces splitMSL(StringRef source) {
  MSLPieces pieces;
  SmallVector<StringRef> lines;
  source.split(lines, '\n');
  size_t i = 0;
  for (; i < lines.size(); ++i) {
    StringRef line = lines[i].rtrim();
    if (line.empty())
      continue;
    if (!line.starts_with("#") && !line.starts_with("using namespace"))
      break;
    pieces.preamble.push_back(line.str());
  }
  std::string current;
  int depth = 0;
  for (; i < lines.size(); ++i) {
    StringRef line = lines[i].rtrim();
    if (line.empty() && depth == 0) {
      if (!current.empty())
        pieces.declarations.push_back(std::move(current));
      current.clear();
      continue;
    }
    depth += int(line.count('{')) - int(line.count('}'));
    current += line.str();
    current += "\n";
  }
  if (!current.empty())
    pieces.declarations.push_back(std::move(current));
  return pieces;
}

namespace {
class MSLTargetInfo final : public TargetInfo {
public:
  Target getTarget() const override { return Target::Msl; }
  Phase getFinalPhase() const override { return Phase::Msl; }

  FailureOr<TargetModule> emitModule(ModuleOp module) const override {
    FailureOr<SPIRVBinary> binary = serializeKernelsToSPIRV(module);
    if (failed(binary))
      return failure();
    // The spirv.module of each entry point, serialized once each.
    llvm::StringMap<spirv::ModuleOp> moduleOfKernel;
    for (auto spvModule : module.getOps<spirv::ModuleOp>())
      for (auto entry : spvModule.getOps<spirv::EntryPointOp>())
        moduleOfKernel[entry.getFn()] = spvModule;
    llvm::DenseMap<Operation *, SmallVector<uint32_t>> wordsOfModule;

    TargetModule emitted;
    // A graph with no kernel: the Metal source of the SPIR-V binary's one
    // empty entry point, which the manifest does not list either.
    if (binary->kernels.empty()) {
      CrossCompiler cross;
      TargetKernel placeholder;
      placeholder.entryPoint = kNoKernelEntryPoint.str();
      std::string mslName;
      SmallVector<KernelArgSlot> slots;
      if (failed(cross.parse(binary->words, module.getLoc())))
        return failure();
      FailureOr<std::string> source =
          cross.compileKernel(placeholder, mslName, slots, module.getLoc());
      if (failed(source))
        return failure();
      emitted.image = std::move(*source);
      return emitted;
    }
    llvm::StringSet<> preambleSeen, declarationsSeen;
    std::string preamble, body;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
        auto it = binary->kernels.find(func.getName());
        if (it == binary->kernels.end())
          continue;
        spirv::ModuleOp spvModule = moduleOfKernel.lookup(func.getName());
        if (!spvModule)
          return func.emitOpError("has no entry point in the SPIR-V modules");
        auto [words, fresh] = wordsOfModule.try_emplace(spvModule);
        if (fresh && failed(spirv::serialize(spvModule, words->second)))
          return failure();
        CrossCompiler cross;
        if (failed(cross.parse(words->second, func.getLoc())))
          return failure();
        TargetKernel mslKernel;
        FailureOr<std::string> source = cross.compileKernel(
            it->second, mslKernel.entryPoint, mslKernel.args, func.getLoc());
        if (failed(source))
          return failure();
        // Equal text is the same declaration (a helper SPIRV-Cross writes
        // for every kernel); anything a kernel declares itself carries its
        // name.
        MSLPieces pieces = splitMSL(*source);
        for (std::string &line : pieces.preamble)
          if (preambleSeen.insert(line).second)
            preamble += line + "\n";
        for (std::string &declaration : pieces.declarations)
          if (declarationsSeen.insert(declaration).second)
            body += "\n" + declaration;
        emitted.kernels[func.getName()] = std::move(mslKernel);
      }
    }
    emitted.image = preamble + body;
    return emitted;
  }
};
} // namespace

const TargetInfo &mlir::uta::getMSLTargetInfo() {
  static const MSLTargetInfo info;
  return info;
}
