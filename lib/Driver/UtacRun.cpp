//===- UtacRun.cpp - `utac run`: compile, execute, check ------------------===//
//
// `utac run`: compile the entry through the kernel cache, fill the
// arguments (seeded normals or .npy files), run on a backend, and with
// --check compare every result with the float64 reference on the same
// inputs. Exit codes: 0 ok, 1 bad input, 2 check failed, 3 no backend here.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Utac.h"

#include "lib/Driver/Gradient.h"
#include "lib/Driver/Input.h"

#include "lib/CachedCompile/CachedCompile.h"
#include "lib/Compiler/HelpOptions.h"
#include "lib/Compiler/InitAll.h"
#include "lib/Reference/Interpreter.h"
#include "passes/Transforms/Passes.h"

#include "runtime/cache/KernelCache.h"
#include "runtime/core/Compare.h"
#include "runtime/core/Profile.h"
#include "runtime/core/RunIO.h"
#include "runtime/cuda/CudaBackend.h"
#include "runtime/vulkan/VulkanBackend.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::uta;
namespace cl = llvm::cl;
namespace rt = ::uta::runtime;

namespace {
struct RunOptions {
  cl::OptionCategory category{"utac run options"};
  cl::opt<std::string> input{cl::Positional, cl::desc("<input.mlir>"),
                             cl::Required, cl::cat(category)};
  cl::opt<std::string> backend{
      "backend", cl::desc("Where to run: cuda, vulkan or reference"),
      cl::Required, cl::cat(category)};
  cl::opt<uint64_t> seed{"seed",
                         cl::desc("Seed of the standard-normal arguments "
                                  "(docs/random-inputs.md)"),
                         cl::init(0), cl::cat(category)};
  cl::list<std::string> inputs{
      "inputs", cl::desc("Take the arguments from .npy files, in order"),
      cl::CommaSeparated, cl::cat(category)};
  cl::opt<std::string> save{
      "save", cl::desc("Write the results to DIR/result0.npy, ..."),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<bool> check{"check",
                      cl::desc("Compare every result with the float64 "
                               "reference; exit 2 if one is off"),
                      cl::cat(category)};
  cl::opt<bool> profile{"profile", cl::desc("Print each kernel's GPU time"),
                        cl::cat(category)};
  cl::opt<std::string> entry{"entry", cl::desc("The public function to run"),
                             cl::value_desc("name"), cl::cat(category)};
  cl::opt<int> device{"device", cl::desc("The GPU to run on"), cl::init(0),
                      cl::cat(category)};
  cl::opt<std::string> sm{"sm", cl::desc("CUDA architecture of the kernels"),
                          cl::init("90"), cl::cat(category)};
  cl::opt<bool> allowTf32{
      "allow-tf32",
      cl::desc("f32 matmuls in plain TF32 on CUDA tensor cores (about 1e-3 "
               "relative error; --check then uses the tf32 tolerance)"),
      cl::init(false), cl::cat(category)};
  cl::opt<bool> fastMath{
      "fast-math",
      cl::desc("Approximate transcendentals (utac --fast-math); --check "
               "then uses the fast-math tolerance for f32 results"),
      cl::init(false), cl::cat(category)};
  cl::opt<std::string> grad{
      "grad",
      cl::desc("Run the gradient of the entry instead (utac --grad): vjp, "
               "joint, forward or backward; pair runs the training pair's "
               "forward, then its backward on the values the forward saved, "
               "and prints the results, then the gradients. The cotangents "
               "(and the saved values of --grad=backward) are seeded like "
               "the arguments"),
      cl::value_desc("vjp|joint|forward|backward|pair"), cl::cat(category)};
  cl::list<unsigned> wrt{
      "wrt",
      cl::desc("With --grad or --check-grad: the arguments to differentiate, "
               "by index (default: all)"),
      cl::CommaSeparated, cl::value_desc("i,j,..."), cl::cat(category)};
  cl::opt<bool> checkGrad{
      "check-grad",
      cl::desc("Compare the gradient (--grad=vjp, implied, or --grad=pair) "
               "that the float64 reference computes with central finite "
               "differences of the reference's forward function, on at most "
               "64 elements per argument; exit 2 if one is off "
               "(docs/autodiff.md)"),
      cl::cat(category)};
  cl::opt<std::string> referenceMemoryBudget{
      "reference-memory-budget",
      cl::desc("The most bytes of float64 values the reference may hold at "
               "once (bytes, or with K, M, G or T; default 4G or "
               "UTA_REFERENCE_MEMORY_BUDGET); a graph that needs more is "
               "refused before anything is allocated"),
      cl::value_desc("size"), cl::cat(category)};
};

int fail(const rt::Status &status) {
  llvm::errs() << "utac run: " << status.message() << "\n";
  return status.code() == rt::ErrorCode::Unavailable ? kBackendUnavailable
                                                     : kBadInput;
}

/// The runtime's spec of an entry's argument or result type, which
/// selectEntry has checked to be a static f32, f16 or bf16 tensor.
rt::TensorSpec getTensorSpec(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  Type element = tensor.getElementType();
  rt::TensorSpec spec;
  spec.shape = tensor.getShape().vec();
  spec.type = element.isF32()   ? rt::ElementType::kF32
              : element.isF16() ? rt::ElementType::kF16
                                : rt::ElementType::kBF16;
  return spec;
}

/// Whether results sum many terms, which earns them the looser f32
/// tolerance of the check (docs/runtime.md).
bool hasReductions(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return sumsManyTerms(op) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

rt::CheckPrecision getPrecision(rt::ElementType type) {
  switch (type) {
  case rt::ElementType::kF32:
    return rt::CheckPrecision::kF32;
  case rt::ElementType::kF16:
    return rt::CheckPrecision::kF16;
  case rt::ElementType::kBF16:
    return rt::CheckPrecision::kBF16;
  }
  return rt::CheckPrecision::kF32;
}

/// The reference's results on `arguments` (widened exactly to double).
std::vector<reference::RefTensor>
toReference(ArrayRef<rt::HostTensor> arguments) {
  std::vector<reference::RefTensor> args;
  for (const rt::HostTensor &argument : arguments) {
    std::vector<float> values = argument.toFloat32();
    args.push_back(
        {argument.shape, std::vector<double>(values.begin(), values.end())});
  }
  return args;
}

FailureOr<std::vector<reference::RefTensor>>
runReference(func::FuncOp func, ArrayRef<rt::HostTensor> arguments,
             uint64_t memoryBudget) {
  std::vector<reference::RefTensor> args = toReference(arguments);
  reference::InterpretOptions options;
  options.memoryBudget = memoryBudget;
  return reference::interpret(func, args, options);
}

/// The training pair on the reference: the forward's results, then the
/// backward's gradients. `arguments` are the inputs, then the cotangents.
FailureOr<std::vector<reference::RefTensor>>
runReferencePair(func::FuncOp forward, func::FuncOp backward,
                 ArrayRef<rt::HostTensor> arguments, uint64_t memoryBudget) {
  std::vector<reference::RefTensor> args = toReference(arguments);
  size_t numInputs = forward.getNumArguments();
  std::vector<reference::RefTensor> results;
  FailureOr<std::vector<reference::RefTensor>> gradients =
      referencePair(forward, backward, memoryBudget,
                    &results)(ArrayRef(args).take_front(numInputs),
                              ArrayRef(args).drop_front(numInputs));
  if (failed(gradients))
    return failure();
  llvm::append_range(results, *gradients);
  return results;
}

/// The reference's memory budget: --reference-memory-budget, else the
/// environment's, else the default; std::nullopt after an error.
std::optional<uint64_t> getReferenceMemoryBudget(StringRef option) {
  if (!option.empty()) {
    std::optional<uint64_t> budget = reference::parseByteSize(option);
    if (!budget)
      llvm::errs() << "utac run: --reference-memory-budget=" << option
                   << " is not a size (bytes, or a number with K, M, G or "
                      "T)\n";
    return budget;
  }
  std::string error;
  FailureOr<uint64_t> budget = reference::getMemoryBudgetFromEnvironment(error);
  if (failed(budget)) {
    llvm::errs() << "utac run: " << error << "\n";
    return std::nullopt;
  }
  return *budget;
}
} // namespace

int mlir::uta::runUtacRunMain(int argc, char **argv) {
  RunOptions options;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  hideOptionsOutside({&options.category});
  cl::ParseCommandLineOptions(
      argc, argv,
      "utac run: compile a graph, run it, and check it\n\n"
      "  utac run IN.mlir --backend=cuda --check\n"
      "  utac run IN.mlir --backend=reference --save=DIR\n"
      "  utac run IN.mlir --backend=reference --check-grad   gradient vs "
      "finite differences\n"
      "  utac run IN.mlir --backend=vulkan --grad=vjp --check\n"
      "  utac run IN.mlir --backend=vulkan --grad=pair --check   forward, "
      "then backward,\n"
      "                                        against the joint function\n"
      "Exit codes: 0 ok, 1 bad input or compile error, 2 --check failed, 3 "
      "the backend is not available here.\n");

  std::string backendName = options.backend;
  if (backendName != "cuda" && backendName != "vulkan" &&
      backendName != "reference") {
    llvm::errs() << "utac run: unknown --backend=" << backendName
                 << " (expected cuda, vulkan or reference)\n";
    return kBadInput;
  }
  if (!isSupportedSM(options.sm)) {
    llvm::errs() << "utac run: unsupported --sm=" << options.sm
                 << " (expected 80, 86, 89, 90 or 90a)\n";
    return kBadInput;
  }
  if (options.check && backendName == "reference") {
    llvm::errs() << "utac run: --check compares a backend with the reference;"
                    " with --backend=reference there is nothing to compare\n";
    return kBadInput;
  }
  std::optional<uint64_t> memoryBudget =
      getReferenceMemoryBudget(options.referenceMemoryBudget);
  if (!memoryBudget)
    return kBadInput;
  std::optional<GradientMode> gradientMode = parseGradientMode(options.grad);
  if (!gradientMode) {
    llvm::errs() << "utac run: unknown --grad=" << options.grad
                 << " (expected vjp, joint, forward, backward or pair)\n";
    return kBadInput;
  }
  if (options.checkGrad && *gradientMode != GradientMode::None &&
      *gradientMode != GradientMode::Vjp &&
      *gradientMode != GradientMode::Pair) {
    llvm::errs() << "utac run: --check-grad checks the gradient function "
                    "@f_vjp or the training pair; leave out --grad="
                 << options.grad << " or use --grad=pair\n";
    return kBadInput;
  }
  if (options.checkGrad && *gradientMode == GradientMode::None)
    gradientMode = GradientMode::Vjp;
  bool pair = *gradientMode == GradientMode::Pair;
  if (!options.wrt.empty() && *gradientMode == GradientMode::None) {
    llvm::errs() << "utac run: --wrt needs --grad or --check-grad\n";
    return kBadInput;
  }

  std::unique_ptr<InputModule> input =
      InputModule::parse(options.input, "utac run");
  if (!input || failed(input->checkEntryOption(options.entry, "utac run")))
    return kBadInput;
  OwningOpRef<ModuleOp> &module = input->getModule();
  // With --grad the gradient function becomes the entry; the forward one
  // stays (private) for --check-grad.
  std::string entryName = options.entry, forwardName;
  std::vector<unsigned> wrt(options.wrt.begin(), options.wrt.end());
  if (*gradientMode != GradientMode::None) {
    FailureOr<func::FuncOp> forward = selectEntry(*module, entryName);
    if (failed(forward))
      return kBadInput;
    forwardName = forward->getName().str();
    if (wrt.empty())
      for (unsigned i = 0; i < forward->getNumArguments(); ++i)
        wrt.push_back(i);
    entryName = forwardName;
    if (failed(applyGradientMode(*module, entryName, *gradientMode, wrt)))
      return kBadInput;
  }
  FailureOr<func::FuncOp> entry = selectEntry(*module, entryName);
  if (failed(entry))
    return kBadInput;
  // The pair's backward half; the reference checks the pair against the
  // joint function, built from the forward function in `original` below.
  func::FuncOp backwardHalf;
  if (pair)
    backwardHalf =
        module->lookupSymbol<func::FuncOp>(forwardName + "_backward");

  // The reference interprets the graph as written, before any pass.
  OwningOpRef<ModuleOp> original = module->clone();
  auto referenceEntry = original->lookupSymbol<func::FuncOp>(entry->getName());
  if (pair) {
    DifferentiateOptions joint;
    joint.wrt.assign(wrt.begin(), wrt.end());
    joint.joint = true;
    FailureOr<func::FuncOp> jointFunction = buildGradientFunction(
        original->lookupSymbol<func::FuncOp>(forwardName), joint);
    if (failed(jointFunction))
      return kBadInput;
    referenceEntry = *jointFunction;
  }
  // A graph the reference cannot hold is refused before the arguments are
  // made.
  bool usesReference = backendName == "reference" || options.check;
  if (usesReference &&
      failed(reference::checkMemoryBudget(referenceEntry, *memoryBudget)))
    return kBadInput;

  // Argument types, from the signature (the pair's: the joint function's,
  // the inputs and then the cotangents).
  std::vector<rt::TensorSpec> argSpecs;
  for (Type type : referenceEntry.getArgumentTypes())
    argSpecs.push_back(getTensorSpec(type));

  std::vector<rt::HostTensor> arguments;
  if (!options.inputs.empty()) {
    if (options.inputs.size() != argSpecs.size()) {
      llvm::errs() << "utac run: @" << referenceEntry.getName() << " takes "
                   << argSpecs.size() << " arguments, --inputs names "
                   << options.inputs.size() << "\n";
      return kBadInput;
    }
    for (size_t i = 0; i < argSpecs.size(); ++i) {
      rt::Expected<rt::HostTensor> argument =
          rt::readArgument(options.inputs[i], argSpecs[i], i);
      if (!argument)
        return fail(argument.status());
      arguments.push_back(std::move(*argument));
    }
  } else {
    for (size_t i = 0; i < argSpecs.size(); ++i)
      arguments.push_back(rt::seededArgument(options.seed, argSpecs[i], i));
  }

  func::FuncOp referenceForward =
      pair ? original->lookupSymbol<func::FuncOp>(entry->getName())
           : func::FuncOp();
  func::FuncOp referenceBackward =
      pair ? original->lookupSymbol<func::FuncOp>(backwardHalf.getName())
           : func::FuncOp();

  int gradientExit = kSuccess;
  if (options.checkGrad) {
    std::vector<std::vector<double>> values;
    for (const rt::HostTensor &argument : arguments) {
      std::vector<float> single = argument.toFloat32();
      values.emplace_back(single.begin(), single.end());
    }
    GradientCheckOptions checkOptions;
    checkOptions.wrt = wrt;
    checkOptions.seed = options.seed;
    checkOptions.memoryBudget = *memoryBudget;
    ReferenceGradient gradient =
        pair ? referencePair(referenceForward, referenceBackward, *memoryBudget)
             : referenceVjp(referenceEntry, *memoryBudget);
    FailureOr<bool> passed =
        checkGradients(original->lookupSymbol<func::FuncOp>(forwardName),
                       gradient, values, checkOptions, llvm::outs());
    if (failed(passed))
      return kBadInput;
    if (!*passed)
      gradientExit = kCheckFailed;
  }

  if (backendName == "reference") {
    FailureOr<std::vector<reference::RefTensor>> results =
        pair ? runReferencePair(referenceForward, referenceBackward, arguments,
                                *memoryBudget)
             : runReference(referenceEntry, arguments, *memoryBudget);
    if (failed(results))
      return kBadInput;
    std::vector<std::vector<double>> values;
    std::vector<std::vector<int64_t>> shapes;
    for (auto [i, result] : llvm::enumerate(*results)) {
      llvm::outs() << "result" << i << ": f64 " << rt::formatShape(result.shape)
                   << "\n";
      values.push_back(result.data);
      shapes.push_back(result.shape);
    }
    if (!options.save.empty())
      if (rt::Status saved = rt::saveResults(options.save, values, shapes);
          !saved)
        return fail(saved);
    return gradientExit;
  }

  // cuda runs PTX, vulkan runs SPIR-V (lib/Target, runtime/vulkan).
  bool vulkan = backendName == "vulkan";
  // Compile through the kernel cache; a cache that cannot open is skipped.
  std::unique_ptr<rt::KernelCache> cache = openKernelCacheOrWarn();
  PipelineOptions pipeline;
  pipeline.sm = options.sm;
  pipeline.allowTf32 = options.allowTf32;
  pipeline.fastMath = options.fastMath;
  std::unique_ptr<rt::Backend> backend;
  int runExit = kSuccess;
  // Compiles `function` (the module's one public function while it is
  // compiled) and runs it on `args`; std::nullopt after an error, reported,
  // with its exit code in runExit.
  // Compiling lowers the module in place, so with a pair each half is
  // compiled from a copy, in which it is the one public function.
  auto compileAndRun = [&](func::FuncOp half,
                           const std::vector<rt::HostTensor> &args)
      -> std::optional<rt::RunOutput> {
    OwningOpRef<ModuleOp> copy;
    ModuleOp compiledModule = *module;
    func::FuncOp function = half;
    if (pair) {
      copy = module->clone();
      compiledModule = *copy;
      for (auto candidate : copy->getOps<func::FuncOp>())
        candidate.setVisibility(candidate.getName() == half.getName()
                                    ? SymbolTable::Visibility::Public
                                    : SymbolTable::Visibility::Private);
      function = copy->lookupSymbol<func::FuncOp>(half.getName());
    }
    CompileOptions compileOptions;
    compileOptions.target = vulkan ? Target::Spirv : Target::Ptx;
    compileOptions.entry = function.getName().str();
    // The module stays in memory; the manifest still names a file for it.
    compileOptions.moduleFileName =
        function.getName().str() + (vulkan ? ".spv" : ".ptx");
    compileOptions.pipeline = &pipeline;
    FailureOr<CachedCompileResult> compiled =
        compileWithCache(compiledModule, function, compileOptions, cache.get());
    if (failed(compiled)) {
      runExit = kBadInput;
      return std::nullopt;
    }
    rt::Expected<rt::Manifest> manifest =
        rt::parseManifest(compiled->graph.manifest, "<compiled manifest>", ".");
    if (!manifest) {
      runExit = fail(manifest.status());
      return std::nullopt;
    }
    if (!backend) {
      rt::BackendOptions backendOptions;
      backendOptions.device = options.device;
      rt::Expected<std::unique_ptr<rt::Backend>> created =
          vulkan ? rt::vulkan::createVulkanBackend(backendOptions)
                 : rt::cuda::createCudaBackend(backendOptions);
      if (!created) {
        runExit = fail(created.status());
        return std::nullopt;
      }
      backend = std::move(*created);
    }
    const std::string &image = compiled->graph.module;
    rt::Expected<rt::Executor> executor = rt::Executor::load(
        *backend, std::move(*manifest),
        std::as_bytes(std::span(image.data(), image.size())));
    if (!executor) {
      runExit = fail(executor.status());
      return std::nullopt;
    }
    rt::RunOptions runOptions;
    runOptions.profile = options.profile;
    rt::Expected<rt::RunOutput> output = executor->run(args, runOptions);
    if (!output) {
      runExit = fail(output.status());
      return std::nullopt;
    }
    if (options.profile)
      for (const rt::KernelTiming &timing : output->timings) {
        const std::vector<rt::LaunchDesc> &launches =
            executor->manifest().launches;
        if (pair)
          llvm::outs() << "@" << half.getName() << " ";
        llvm::outs() << "kernel " << timing.kernel;
        if (timing.launch < launches.size() && launches[timing.launch].plan)
          llvm::outs() << " (" << launches[timing.launch].plan->row << ")";
        llvm::outs() << ": " << llvm::format("%.4f", timing.milliseconds)
                     << " ms";
        if (timing.launch < launches.size() && launches[timing.launch].cost)
          llvm::outs() << rt::formatRates(*launches[timing.launch].cost,
                                          timing.milliseconds);
        llvm::outs() << "\n";
      }
    return std::move(*output);
  };

  std::optional<rt::RunOutput> output;
  if (!pair) {
    output = compileAndRun(*entry, arguments);
  } else {
    // The forward on the inputs, then the backward on the values it saved
    // and the cotangents: the results, then the gradients.
    size_t numInputs = entry->getNumArguments();
    std::vector<rt::HostTensor> inputs(arguments.begin(),
                                       arguments.begin() + numInputs);
    output = compileAndRun(*entry, inputs);
    if (output) {
      std::vector<rt::HostTensor> backwardArgs;
      auto saved = backwardHalf->getAttrOfType<DenseI64ArrayAttr>("uta.saved");
      for (int64_t index : saved.asArrayRef())
        backwardArgs.push_back(size_t(index) < numInputs
                                   ? arguments[index]
                                   : output->results[index - numInputs]);
      backwardArgs.insert(backwardArgs.end(), arguments.begin() + numInputs,
                          arguments.end());
      std::optional<rt::RunOutput> gradients =
          compileAndRun(backwardHalf, backwardArgs);
      if (gradients) {
        output->results.resize(arguments.size() - numInputs);
        for (rt::HostTensor &gradient : gradients->results)
          output->results.push_back(std::move(gradient));
      } else {
        output.reset();
      }
    }
  }
  if (!output)
    return runExit;

  int exitCode = gradientExit;
  if (options.check) {
    FailureOr<std::vector<reference::RefTensor>> expected =
        runReference(referenceEntry, arguments, *memoryBudget);
    if (failed(expected))
      return kBadInput;
    bool reduces = hasReductions(referenceEntry);
    for (auto [i, result] : llvm::enumerate(output->results)) {
      std::vector<float> values = result.toFloat32();
      // Plain TF32 matmuls (CUDA only) keep 10 mantissa bits.
      rt::CheckPrecision precision = getPrecision(result.type);
      if (options.allowTf32 && !vulkan && reduces &&
          precision == rt::CheckPrecision::kF32)
        precision = rt::CheckPrecision::kTF32;
      // The fast-math tolerance covers TF32's too (both 2e-3).
      if (options.fastMath && precision == rt::CheckPrecision::kF32)
        precision = rt::CheckPrecision::kF32FastMath;
      double tolerance = rt::getDefaultTolerance(precision, reduces);
      rt::Expected<rt::Comparison> comparison =
          rt::compareResult("result" + std::to_string(i), values,
                            (*expected)[i].data, result.shape, tolerance);
      if (!comparison)
        return fail(comparison.status());
      llvm::outs() << comparison->getReport() << "\n";
      if (!comparison->passed())
        exitCode = kCheckFailed;
    }
  }
  if (exitCode == kSuccess && !options.save.empty())
    if (rt::Status saved = rt::saveResults(options.save, output->results);
        !saved)
      return fail(saved);
  return exitCode;
}
