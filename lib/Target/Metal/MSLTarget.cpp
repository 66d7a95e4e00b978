//===- MSLTarget.cpp - The Metal Shading Language target ------------------===//

#include "lib/Target/Metal/MSLTarget.h"

#include "lib/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <spirv_cross/spirv_cross_c.h>

using namespace mlir;
using namespace mlir::uta;

/// MSL 2.1 (macOS 10.14, iOS 12): what every Metal 2 device runs.
static constexpr unsigned kMSLVersion = 20100;

namespace {
/// A SPIRV-Cross context with the SPIR-V parsed once; every kernel gets its
/// own compiler over a copy of the parsed module.
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
};
} // namespace

LogicalResult CrossCompiler::parse(ArrayRef<uint32_t> words, Location loc) {
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
                                   SPVC_CAPTURE_MODE_COPY,
                                   &compiler) != SPVC_SUCCESS)
    return fail(loc, "cannot create an MSL compiler");
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
    CrossCompiler cross;
    if (failed(cross.parse(binary->words, module.getLoc())))
      return failure();

    TargetModule emitted;
    llvm::StringSet<> preambleSeen, declarationsSeen;
    std::string preamble, body;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
        auto it = binary->kernels.find(func.getName());
        if (it == binary->kernels.end())
          continue;
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
