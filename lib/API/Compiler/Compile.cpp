//===- Compile.cpp - The compiler API: compile a Graph, load it anywhere --===//
//
// include/uta/Compiler.h over lib/CachedCompile: compile() parses the graph's
// text (Graph::str(), the module utac reads) into an MLIRContext of its own, so
// compiles on different threads share nothing but the kernel cache, and
// runs the pipelines of utac through compileWithCache. CompiledGraph::load
// hands the module to the runtime API, or, on the reference device, builds
// an executable that runs the graph in the float64 interpreter.
//
//===----------------------------------------------------------------------===//

#include "uta/Compiler.h"

#include "lib/API/Runtime/ExecutableImpl.h"

#include "lib/CachedCompile/CachedCompile.h"
#include "lib/Compiler/InitAll.h"
#include "lib/Compiler/NestingLimit.h"
#include "lib/Reference/Interpreter.h"

#include "runtime/cache/KernelCache.h"
#include "runtime/core/Half.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>
#include <unistd.h>

using namespace uta;
using namespace uta::detail;
namespace rt = uta::runtime;

namespace uta::detail {
struct KernelCacheImpl {
  std::unique_ptr<rt::KernelCache> cache;
};

struct CompiledGraphImpl {
  std::string name;
  Target target = Target::Ptx;
  std::string module;
  std::string manifest;
  std::string source;
  std::vector<TensorType> inputs;
  std::vector<TensorType> outputs;
  bool cacheHit = false;
  bool reduces = false;
};
} // namespace uta::detail

//===----------------------------------------------------------------------===//
// Parsing a graph into a context of its own
//===----------------------------------------------------------------------===//

namespace {

/// Every dialect the pipelines reach; built once, then only read. Also
/// registers the pass manager's command-line options once: runPipeline
/// applies them, and MLIR's applyPassManagerCLOptions fails when they were
/// never registered (the registration is idempotent, so a host program that
/// registers them too is fine).
const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry registry = [] {
    mlir::registerPassManagerCLOptions();
    mlir::DialectRegistry registry;
    mlir::uta::registerUTADialects(registry);
    return registry;
  }();
  return registry;
}

/// A context for one graph, whose error diagnostics are kept as text
/// ("name:3:10: message; note: ...") instead of going to stderr.
class GraphContext {
public:
  GraphContext()
      : context(getRegistry(), mlir::MLIRContext::Threading::DISABLED),
        handler(&context, [this](mlir::Diagnostic &diagnostic) {
          return record(diagnostic);
        }) {}

  mlir::MLIRContext &getContext() { return context; }
  /// The errors so far, or `fallback` when there were none.
  std::string errors(const std::string &fallback) const {
    return text.empty() ? fallback : text;
  }

  /// Parses `source` (a module named `name` in its locations).
  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &source,
                                          const std::string &name) {
    // MLIR's parser recurses once per nesting level: bound it first.
    if (mlir::failed(mlir::uta::checkNestingDepth(source, name, &context)))
      return nullptr;
    return mlir::parseSourceString<mlir::ModuleOp>(
        source, mlir::ParserConfig(&context), name);
  }

private:
  mlir::LogicalResult record(mlir::Diagnostic &diagnostic) {
    // Warnings and remarks go to the default handler (stderr).
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::failure();
    llvm::raw_string_ostream os(text);
    if (!text.empty())
      os << "; ";
    if (auto loc = mlir::dyn_cast<mlir::FileLineColLoc>(
            mlir::Location(diagnostic.getLocation())))
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn() << ": ";
    os << diagnostic.str();
    for (const mlir::Diagnostic &note : diagnostic.getNotes())
      os << "; note: " << note.str();
    return mlir::success();
  }

  mlir::MLIRContext context;
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};

/// The API's type of an entry's argument or result, which selectEntry has
/// checked to be a static f32, f16 or bf16 tensor.
TensorType getTensorType(mlir::Type type) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  mlir::Type element = tensor.getElementType();
  TensorType result;
  result.shape = tensor.getShape().vec();
  result.dtype = element.isF32()   ? DType::F32
                 : element.isF16() ? DType::F16
                                   : DType::BF16;
  return result;
}

/// Whether results sum many terms, which earns them the looser f32
/// tolerance of the check (docs/runtime.md).
bool computeReduces(mlir::func::FuncOp func) {
  return func
      .walk([](mlir::Operation *op) {
        return mlir::uta::sumsManyTerms(op) ? mlir::WalkResult::interrupt()
                                            : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidInput, std::move(message));
}

const char *moduleExtension(Target target) {
  switch (target) {
  case Target::Ptx:
    return ".ptx";
  case Target::Spirv:
    return ".spv";
  case Target::Msl:
    return ".metal";
  }
  return "";
}

mlir::uta::Target toCompilerTarget(Target target) {
  switch (target) {
  case Target::Ptx:
    return mlir::uta::Target::Ptx;
  case Target::Spirv:
    return mlir::uta::Target::Spirv;
  case Target::Msl:
    return mlir::uta::Target::Msl;
  }
  return mlir::uta::Target::Ptx;
}

} // namespace

//===----------------------------------------------------------------------===//
// KernelCache
//===----------------------------------------------------------------------===//

Expected<KernelCache> KernelCache::open(const std::string &directory) {
  Expected<rt::CacheOptions> options = rt::CacheOptions::fromEnvironment();
  if (!options)
    return options.status();
  options->directory = directory;
  Expected<std::unique_ptr<rt::KernelCache>> cache =
      rt::KernelCache::open(*options);
  if (!cache)
    return cache.status();
  auto impl = std::make_shared<KernelCacheImpl>();
  impl->cache = std::move(*cache);
  return Access::make<KernelCache>(std::move(impl));
}

Expected<KernelCache> KernelCache::processCache() {
  // Opened once, on first use, from whichever thread gets here first.
  static const Expected<KernelCache> cache = []() -> Expected<KernelCache> {
    Expected<rt::CacheOptions> options = rt::CacheOptions::fromEnvironment();
    if (!options)
      return options.status();
    return open(options->directory);
  }();
  return cache;
}

CacheStats KernelCache::stats() const {
  rt::CacheStats stats = impl_->cache->stats();
  CacheStats result;
  result.memoryHits = stats.memoryHits;
  result.diskHits = stats.diskHits;
  result.misses = stats.misses;
  result.corrupt = stats.corrupt;
  result.writes = stats.writes;
  return result;
}

std::string KernelCache::directory() const {
  return impl_->cache->entryDirectory();
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//

CompileOptions CompileOptions::forDevice(const Device &device) {
  CompileOptions options;
  options.target = device.target().value_or(Target::Spirv);
  if (device.target() == Target::Ptx) {
    // The newest architecture the compiler knows that the device runs (PTX
    // is forward compatible); on sm_90 itself, its architecture-specific
    // features (wgmma), which run there only.
    int cc = std::atoi(device.sm().c_str());
    for (int known : {90, 89, 86, 80})
      if (cc >= known) {
        options.sm = std::to_string(known);
        break;
      }
    if (cc == 90)
      options.sm = "90a";
  }
  return options;
}

Expected<CompiledGraph> uta::compile(const Graph &graph,
                                     const CompileOptions &options) {
  if (!graph.ok())
    return invalid("graph @" + graph.name() + ": " + graph.error());
  if (options.target == Target::Ptx && !mlir::uta::isSupportedSM(options.sm))
    return invalid("unsupported sm \"" + options.sm +
                   "\" (expected 80, 86, 89, 90 or 90a)");
  if (options.blockSize == 0 || options.blockSize > 1024)
    return invalid("block size " + std::to_string(options.blockSize) +
                   " is not within 1..1024");

  auto impl = std::make_shared<CompiledGraphImpl>();
  impl->name = graph.name();
  impl->target = options.target;
  impl->source = graph.str();

  GraphContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      context.parse(impl->source, impl->name);
  if (!module)
    return invalid(context.errors("the graph's text does not parse"));
  mlir::FailureOr<mlir::func::FuncOp> entry =
      mlir::uta::selectEntry(*module, impl->name);
  if (mlir::failed(entry))
    return invalid(context.errors("the graph has no function UTA can compile"));
  for (auto [types, list] :
       {std::pair{entry->getArgumentTypes(), &impl->inputs},
        std::pair{entry->getResultTypes(), &impl->outputs}}) {
    for (mlir::Type type : types)
      list->push_back(getTensorType(type));
  }
  impl->reduces = computeReduces(*entry);

  mlir::uta::PipelineOptions pipeline;
  pipeline.sm = options.sm;
  pipeline.blockSize = options.blockSize;
  pipeline.fusion = options.fusion == Fusion::None ? "none" : "default";
  pipeline.vectorize = options.vectorize;
  pipeline.allowTf32 = options.allowTf32;
  pipeline.fastMath = options.fastMath;
  mlir::uta::CompileOptions compileOptions;
  compileOptions.target = toCompilerTarget(options.target);
  compileOptions.entry = impl->name;
  compileOptions.moduleFileName = impl->name + moduleExtension(options.target);
  compileOptions.pipeline = &pipeline;

  rt::KernelCache *cache = nullptr;
  Expected<KernelCache> chosen = options.cache
                                     ? Expected<KernelCache>(*options.cache)
                                     : KernelCache::processCache();
  if (chosen)
    cache = Access::impl(*chosen)->cache.get();
  else
    std::fprintf(stderr, "warning: kernel cache disabled: %s\n",
                 chosen.status().message().c_str());

  mlir::FailureOr<mlir::uta::CachedCompileResult> compiled =
      mlir::uta::compileWithCache(*module, *entry, compileOptions, cache);
  if (mlir::failed(compiled))
    return invalid(context.errors("the graph does not compile"));
  impl->module = std::move(compiled->graph.module);
  impl->manifest = std::move(compiled->graph.manifest);
  impl->cacheHit = compiled->hit;
  return Access::make<CompiledGraph>(
      std::shared_ptr<const CompiledGraphImpl>(std::move(impl)));
}

bool uta::hasReductions(const CompiledGraph &graph) {
  return Access::impl(graph)->reduces;
}

//===----------------------------------------------------------------------===//
// CompiledGraph
//===----------------------------------------------------------------------===//

const std::string &CompiledGraph::name() const { return impl_->name; }
Target CompiledGraph::target() const { return impl_->target; }
const std::string &CompiledGraph::module() const { return impl_->module; }
const std::string &CompiledGraph::manifest() const { return impl_->manifest; }
const std::string &CompiledGraph::source() const { return impl_->source; }
const std::vector<TensorType> &CompiledGraph::inputs() const {
  return impl_->inputs;
}
const std::vector<TensorType> &CompiledGraph::outputs() const {
  return impl_->outputs;
}
bool CompiledGraph::cacheHit() const { return impl_->cacheHit; }

/// Writes `bytes` to `path` through a temporary file and a rename, so that
/// `path` is whole or untouched.
static Status writeFileAtomically(const std::string &path,
                                  const std::string &bytes) {
  std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  std::FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file)
    return invalid("cannot write " + path);
  bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  written = std::fclose(file) == 0 && written;
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return invalid("cannot write " + path);
  }
  return Status();
}

Status CompiledGraph::save(const std::string &path) const {
  // The manifest names the module by its file name, next to it.
  nlohmann::ordered_json manifest = nlohmann::ordered_json::parse(
      impl_->manifest, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded())
    return Status::error(ErrorCode::Internal, "the manifest is not JSON");
  size_t slash = path.find_last_of('/');
  manifest["module"] =
      slash == std::string::npos ? path : path.substr(slash + 1);
  if (Status status = writeFileAtomically(path, impl_->module); !status)
    return status;
  if (Status status =
          writeFileAtomically(path + ".json", manifest.dump(2) + "\n");
      !status) {
    std::remove(path.c_str());
    return status;
  }
  return Status();
}

//===----------------------------------------------------------------------===//
// The reference executable
//===----------------------------------------------------------------------===//

namespace {

/// Runs the graph in the float64 interpreter of lib/Reference. Inputs are
/// widened exactly; outputs are rounded to their element type.
class ReferenceExecutable final : public ExecutableImpl {
public:
  ReferenceExecutable(const CompiledGraphImpl &graph,
                      std::shared_ptr<DeviceImpl> device)
      : ExecutableImpl(graph.name, graph.inputs, graph.outputs),
        device(std::move(device)) {}

  /// Parses the graph; the interpreter walks this module on every run.
  Status prepare(const std::string &source) {
    module = context.parse(source, name);
    if (!module)
      return invalid(context.errors("the graph's text does not parse"));
    func = module->lookupSymbol<mlir::func::FuncOp>(name);
    if (!func)
      return invalid("the graph has no function @" + name);
    return Status();
  }

  Status runHost(std::span<const HostTensorView> inputs,
                 std::span<const HostTensorView> outputs,
                 const RunOptions &) const override {
    std::vector<std::span<const std::byte>> arguments;
    for (const HostTensorView &input : inputs)
      arguments.push_back(input.bytes());
    std::vector<std::vector<double>> results;
    if (Status status = interpret(arguments, results); !status)
      return status;
    for (size_t o = 0; o < outputs.size(); ++o)
      store(results[o], this->outputs[o].dtype, outputs[o].writableBytes());
    return Status();
  }

  Status runDevice(std::span<const rt::DeviceBuffer> inputs,
                   std::span<const rt::DeviceBuffer> outputs,
                   const RunOptions &) const override {
    rt::Backend &memory = *device->backend;
    std::vector<std::vector<std::byte>> inputBytes(inputs.size());
    std::vector<std::span<const std::byte>> arguments;
    for (size_t i = 0; i < inputs.size(); ++i) {
      inputBytes[i].resize(this->inputs[i].bytes());
      if (Status status = memory.download(inputs[i], inputBytes[i]); !status)
        return status;
      arguments.push_back(inputBytes[i]);
    }
    std::vector<std::vector<double>> results;
    if (Status status = interpret(arguments, results); !status)
      return status;
    for (size_t o = 0; o < outputs.size(); ++o) {
      std::vector<std::byte> bytes(this->outputs[o].bytes());
      store(results[o], this->outputs[o].dtype, bytes);
      if (Status status = memory.upload(outputs[o], bytes); !status)
        return status;
    }
    return Status();
  }

private:
  /// The graph's results on `arguments` (raw element bytes).
  Status interpret(std::span<const std::span<const std::byte>> arguments,
                   std::vector<std::vector<double>> &results) const {
    // The memory budget of utac run's reference: UTA_REFERENCE_MEMORY_BUDGET
    // or the default.
    std::string budgetError;
    mlir::FailureOr<uint64_t> budget =
        mlir::uta::reference::getMemoryBudgetFromEnvironment(budgetError);
    if (mlir::failed(budget))
      return invalid(budgetError);
    mlir::uta::reference::InterpretOptions options;
    options.memoryBudget = *budget;
    // One interpretation at a time: it reads the module, and its context
    // (with the diagnostics it keeps) is not shared between threads.
    std::lock_guard<std::mutex> lock(mutex);
    // Checked before the float64 arguments are made (interpret checks
    // again, after).
    if (mlir::failed(mlir::uta::reference::checkMemoryBudget(
            func, options.memoryBudget)))
      return invalid(context.errors("the reference cannot hold the graph"));
    std::vector<mlir::uta::reference::RefTensor> args;
    for (size_t i = 0; i < arguments.size(); ++i) {
      std::vector<float> values(inputs[i].numElements());
      load(arguments[i], inputs[i].dtype, values);
      args.push_back(
          {inputs[i].shape, std::vector<double>(values.begin(), values.end())});
    }
    mlir::FailureOr<std::vector<mlir::uta::reference::RefTensor>> computed =
        mlir::uta::reference::interpret(func, args, options);
    if (mlir::failed(computed))
      return invalid(context.errors("the reference cannot run the graph"));
    for (mlir::uta::reference::RefTensor &result : *computed)
      results.push_back(std::move(result.data));
    return Status();
  }

  static void load(std::span<const std::byte> bytes, DType dtype,
                   std::span<float> values) {
    if (dtype == DType::F32) {
      std::memcpy(values.data(), bytes.data(), values.size() * 4);
      return;
    }
    std::vector<uint16_t> bits(values.size());
    std::memcpy(bits.data(), bytes.data(), bits.size() * 2);
    if (dtype == DType::F16)
      rt::halfToFloat(bits, values);
    else
      rt::bfloat16ToFloat(bits, values);
  }

  static void store(const std::vector<double> &values, DType dtype,
                    std::span<std::byte> bytes) {
    std::vector<float> rounded(values.begin(), values.end());
    if (dtype == DType::F32) {
      std::memcpy(bytes.data(), rounded.data(), rounded.size() * 4);
      return;
    }
    std::vector<uint16_t> bits(rounded.size());
    if (dtype == DType::F16)
      rt::floatToHalf(rounded, bits);
    else
      rt::floatToBfloat16(rounded, bits);
    std::memcpy(bytes.data(), bits.data(), bits.size() * 2);
  }

  std::shared_ptr<DeviceImpl> device;
  mutable std::mutex mutex;
  mutable GraphContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
};

} // namespace

Expected<Executable> CompiledGraph::load(const Device &device) const {
  const std::shared_ptr<DeviceImpl> &deviceImpl = Access::impl(device);
  if (deviceImpl->backendName == "reference") {
    auto executable = std::make_shared<ReferenceExecutable>(*impl_, deviceImpl);
    if (Status status = executable->prepare(impl_->source); !status)
      return status;
    return Access::make<Executable>(device, std::move(executable));
  }
  if (device.target() != impl_->target)
    return invalid(std::string("a ") + targetName(impl_->target) +
                   " module does not run on the " + device.backend() +
                   " device (compile with CompileOptions::forDevice)");
  return Executable::load(
      device, impl_->manifest,
      std::as_bytes(std::span(impl_->module.data(), impl_->module.size())));
}
