//===- Utac.cpp - The utac driver -----------------------------------------===//
//
// The utac command line (`utac --help`) over lib/Compiler: read and verify
// the input with MLIR's parser, run the pipelines, write the module and its
// manifest atomically (both or neither), or print the program after a phase.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Utac.h"

#include "lib/Driver/Gradient.h"
#include "lib/Driver/Input.h"

#include "lib/CachedCompile/CachedCompile.h"
#include "lib/Compiler/Compile.h"
#include "lib/Compiler/HelpOptions.h"
#include "lib/Compiler/InitAll.h"
#include "lib/Compiler/Stats.h"
#include "passes/Conversion/Passes.h"
#include "runtime/cache/CacheCommand.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::uta;
namespace cl = llvm::cl;

namespace {
struct UtacOptions {
  cl::OptionCategory outputOptions{"Output"};
  cl::OptionCategory compilationOptions{"Compilation"};
  cl::OptionCategory diagnosticOptions{"Diagnostics"};
  cl::opt<std::string> input{cl::Positional, cl::desc("<input.mlir>"),
                             cl::init("-"), cl::cat(outputOptions)};
  cl::opt<std::string> output{"o",
                              cl::desc("Write the module to <file> and "
                                       "its manifest to <file>.json"),
                              cl::value_desc("file"), cl::cat(outputOptions)};
  cl::opt<std::string> target{
      "target", cl::desc("Target of the kernels: ptx, spirv or msl"),
      cl::init("ptx"), cl::cat(outputOptions)};
  cl::opt<std::string> compileTo{
      "compile-to",
      cl::desc("Print the program after phase uta, fused, gpu (MLIR), llvm "
               "(LLVM IR), ptx (PTX text), spirv (SPIR-V disassembly) or msl "
               "(Metal source) on stdout and stop"),
      cl::value_desc("phase"), cl::cat(outputOptions)};
  cl::opt<std::string> entry{
      "entry",
      cl::desc("The public function to compile (default: the only "
               "one)"),
      cl::value_desc("name"), cl::cat(outputOptions)};
  cl::opt<std::string> fusion{
      "uta-fusion",
      cl::desc("Fusion policy: default, or none (one kernel per op)"),
      cl::init("default"), cl::cat(compilationOptions)};
  cl::opt<std::string> vectorize{
      "uta-vectorize",
      cl::desc("Vector memory accesses: on (128-bit loads and stores where "
               "alignment and shapes allow), or off (scalar accesses)"),
      cl::init("on"), cl::cat(compilationOptions)};
  cl::opt<bool> remarks{
      "remarks",
      cl::desc("Report each fusion decision on stderr as a remark at the "
               "producer (what it fused into, or why it stayed in memory), "
               "each matmul's GEMM plan (schedule, precision, tile), and with "
               "--grad the forward values that the backward reads (with "
               "--grad=forward|backward: what is saved or recomputed)"),
      cl::init(false), cl::cat(diagnosticOptions)};
  /// --stats: LLVM owns a `-stats` option already (its pass statistics), so
  /// runUtacMain takes this flag out of argv before the parser sees it.
  bool stats = false;
  cl::opt<std::string> sm{"sm",
                          cl::desc("CUDA architecture: 80, 86, 89, 90, 90a "
                                   "(90a: Hopper's wgmma for matmuls and "
                                   "fc_product; runs on sm_90 only)"),
                          cl::init("90"), cl::cat(compilationOptions)};
  cl::opt<bool> allowTf32{
      "allow-tf32",
      cl::desc("f32 matmuls on tensor cores in plain TF32: 2.6x the speed "
               "of the default 3xTF32 at 4096^3 on an H100, at 3e-4 relative "
               "error instead of 3e-7 (like torch's "
               "float32_matmul_precision('high'); docs/gemm.md); PTX only"),
      cl::init(false), cl::cat(compilationOptions)};
  cl::opt<bool> fastMath{
      "fast-math",
      cl::desc("Approximate transcendentals: exp, log and tanh as PTX's "
               "ex2/lg2/tanh.approx instructions, RelaxedPrecision on "
               "SPIR-V; f32 results within 2e-3 (docs/runtime.md)"),
      cl::init(false), cl::cat(compilationOptions)};
  cl::opt<std::string> grad{
      "grad",
      cl::desc("Compile the gradient of the entry instead (docs/autodiff.md):"
               " vjp builds @f_vjp(inputs..., cotangents...) -> gradients, "
               "joint builds @f_fwd_bwd -> (results..., gradients...); "
               "forward and backward compile one half of the training pair, "
               "@f_forward(inputs...) -> (results..., residuals...) and "
               "@f_backward(saved..., cotangents...) -> gradients, which save "
               "what is costly to recompute (--remarks says what and why)"),
      cl::value_desc("vjp|joint|forward|backward"),
      cl::cat(compilationOptions)};
  cl::list<unsigned> wrt{
      "wrt",
      cl::desc("With --grad: the arguments to differentiate, by index "
               "(default: all)"),
      cl::CommaSeparated, cl::value_desc("i,j,..."),
      cl::cat(compilationOptions)};
  cl::opt<bool> splitK{
      "uta-split-k",
      cl::desc("Split long-K GEMMs whose grid would leave SMs idle (weight "
               "gradients) into partial products over runs of K, summed in "
               "order (CUDA; docs/gemm.md); =false keeps one run, for "
               "benchmarks"),
      cl::init(true), cl::cat(compilationOptions)};
  cl::opt<std::string> gemmConfig{
      "uta-gemm-config",
      cl::desc("Use this row of the GEMM engine's configuration table "
               "(docs/gemm.md) wherever it applies instead of the "
               "heuristic's choice: for benchmarks and tuning"),
      cl::value_desc("name"), cl::cat(compilationOptions)};
};
} // namespace

/// Writes `contents` to `path` through a temporary file and a rename, so a
/// reader never sees a partial file.
static LogicalResult writeFileAtomically(StringRef path, StringRef contents) {
  if (llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << contents;
        return llvm::Error::success();
      })) {
    llvm::errs() << "utac: cannot write " << path << ": "
                 << llvm::toString(std::move(error)) << "\n";
    return failure();
  }
  return success();
}

/// Prints `module` after `phase` (--compile-to, docs/phases.md).
static LogicalResult printPhase(ModuleOp module, Phase phase,
                                const PipelineOptions &pipeline) {
  if (failed(runPipeline(module, phase, pipeline)))
    return failure();
  switch (phase) {
  case Phase::Uta:
  case Phase::Fused:
  case Phase::Gpu:
    module.print(llvm::outs());
    llvm::outs() << "\n";
    return success();
  case Phase::Llvm: {
    FailureOr<std::string> ir = translateKernelsToLLVMIR(module);
    if (failed(ir))
      return failure();
    llvm::outs() << *ir;
    return success();
  }
  case Phase::Ptx:
    break;
  case Phase::Spirv:
  case Phase::Msl: {
    FailureOr<std::string> text = printTargetPhase(module, phase);
    if (failed(text))
      return failure();
    llvm::outs() << *text;
    return success();
  }
  }
  // The PTX text lives in the gpu.binary's object.
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      llvm::outs() << cast<gpu::ObjectAttr>(object).getObject().getValue();
  return success();
}

int mlir::uta::runUtacMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Subcommands: `utac run ...` and `utac cache stats|verify|clear`.
  if (argc >= 2 && std::strcmp(argv[1], "run") == 0) {
    std::string name = std::string(argv[0]) + " run";
    std::vector<char *> args{name.data()};
    args.insert(args.end(), argv + 2, argv + argc);
    return runUtacRunMain(static_cast<int>(args.size()), args.data());
  }
  if (argc >= 2 && std::strcmp(argv[1], "cache") == 0) {
    std::vector<std::string_view> words(argv + 2, argv + argc);
    return ::uta::runtime::runCacheCommand("utac", words, stdout, stderr);
  }
  UtacOptions options;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && (std::strcmp(argv[i], "--stats") == 0 ||
                  std::strcmp(argv[i], "-stats") == 0)) {
      options.stats = true;
      continue;
    }
    args.push_back(argv[i]);
  }
  argc = static_cast<int>(args.size());
  argv = args.data();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  // MLIR's and LLVM's options stay reachable under --help-hidden.
  hideOptionsOutside({&options.outputOptions, &options.compilationOptions,
                      &options.diagnosticOptions});
  cl::ParseCommandLineOptions(
      argc, argv,
      "utac: the UTA compiler\n\n"
      "Compiles a graph of uta and clifford ops (an .mlir file) to GPU "
      "kernels:\n"
      "  utac IN.mlir --target=T -o OUT        writes OUT and OUT.json (the "
      "manifest);\n"
      "                                        T is ptx, spirv or msl\n"
      "  utac IN.mlir --compile-to=PHASE       prints the program after "
      "PHASE\n"
      "  utac IN.mlir --stats                  prints the kernels and the "
      "bytes they move,\n"
      "                                        without and with fusion\n"
      "  utac IN.mlir --remarks                prints each fusion decision "
      "and its reason\n"
      "  utac IN.mlir --grad=vjp [--wrt=0,2] ...  compiles the gradient "
      "(docs/autodiff.md)\n"
      "  utac IN.mlir --grad=forward|backward ...  one half of the training "
      "pair\n"
      "  utac IN.mlir                          parses and verifies only\n"
      "  utac run IN.mlir --backend=B [--check] compiles, runs and checks "
      "(utac run --help)\n"
      "  utac cache stats|verify|clear         the kernel cache "
      "(docs/cache.md)\n"
      "Errors carry file:line:col. Exit codes: 0 ok, 1 bad input or "
      "compile error.\n"
      "MLIR's and LLVM's own options (--mlir-print-ir-after-all, "
      "--mlir-timing...):\n"
      "--help-hidden.\n");

  std::optional<Target> target = parseTarget(options.target);
  if (!target) {
    llvm::errs() << "utac: unknown --target=" << options.target
                 << " (expected ptx, spirv or msl)\n";
    return kBadInput;
  }
  std::optional<Phase> phase;
  if (!options.compileTo.empty()) {
    phase = parsePhase(options.compileTo);
    if (!phase) {
      llvm::errs() << "utac: unknown --compile-to=" << options.compileTo
                   << " (expected uta, fused, gpu, llvm, ptx, spirv or "
                      "msl)\n";
      return kBadInput;
    }
  }
  if (options.vectorize != "on" && options.vectorize != "off") {
    llvm::errs() << "utac: unknown --uta-vectorize=" << options.vectorize
                 << " (expected on or off)\n";
    return kBadInput;
  }
  if (!isSupportedSM(options.sm)) {
    llvm::errs() << "utac: unsupported --sm=" << options.sm
                 << " (expected 80, 86, 89, 90 or 90a)\n";
    return kBadInput;
  }

  if (options.fusion != "default" && options.fusion != "none") {
    llvm::errs() << "utac: unknown --uta-fusion=" << options.fusion
                 << " (expected default or none)\n";
    return kBadInput;
  }
  if (!options.gemmConfig.empty() && !isGemmConfigName(options.gemmConfig)) {
    llvm::errs() << "utac: --uta-gemm-config=" << options.gemmConfig
                 << ": no row of the GEMM table has that name (docs/gemm.md)\n";
    return kBadInput;
  }

  std::optional<GradientMode> gradientMode = parseGradientMode(options.grad);
  if (!gradientMode) {
    llvm::errs() << "utac: unknown --grad=" << options.grad
                 << " (expected vjp, joint, forward or backward)\n";
    return kBadInput;
  }
  if (*gradientMode == GradientMode::Pair) {
    llvm::errs() << "utac: --grad=pair runs both halves of the training pair "
                    "(utac run); compile one with --grad=forward or "
                    "--grad=backward\n";
    return kBadInput;
  }
  if (!options.wrt.empty() && *gradientMode == GradientMode::None) {
    llvm::errs() << "utac: --wrt needs --grad\n";
    return kBadInput;
  }

  std::unique_ptr<InputModule> input =
      InputModule::parse(options.input, "utac");
  if (!input || failed(input->checkEntryOption(options.entry, "utac")))
    return kBadInput;
  OwningOpRef<ModuleOp> &module = input->getModule();
  // With --grad the gradient function becomes the entry.
  std::string entryName = options.entry;
  if (failed(applyGradientMode(
          *module, entryName, *gradientMode,
          SmallVector<unsigned>(options.wrt.begin(), options.wrt.end()),
          options.remarks)))
    return kBadInput;

  // Only verification was asked for.
  if (!phase && options.output.empty() && !options.stats && !options.remarks)
    return kSuccess;

  // The pipeline options of the flags; the --stats and --remarks runs
  // differ only in the fusion policy and remarks.
  auto configure = [&](PipelineOptions &pipeline, StringRef fusion) {
    pipeline.sm = options.sm;
    pipeline.fusion = fusion.str();
    pipeline.vectorize = options.vectorize == "on";
    pipeline.allowTf32 = options.allowTf32;
    pipeline.fastMath = options.fastMath;
    pipeline.gemmConfig = options.gemmConfig;
    pipeline.splitK = options.splitK;
    // Tensor cores are a CUDA feature; SPIR-V and MSL get the SIMT GEMM,
    // also in what --compile-to=gpu prints for them.
    pipeline.tensorCores = *target == Target::Ptx;
    pipeline.mergeLaunches = *target == Target::Ptx;
  };
  PipelineOptions pipeline;
  configure(pipeline, options.fusion);
  if (options.stats) {
    // The same graph partitioned without fusion and with the chosen policy.
    for (StringRef policy : {StringRef("none"), StringRef(pipeline.fusion)}) {
      OwningOpRef<ModuleOp> copy = module->clone();
      PipelineOptions variant;
      configure(variant, policy);
      if ((!entryName.empty() && failed(selectEntry(*copy, entryName))) ||
          failed(runPipeline(*copy, Phase::Gpu, variant)))
        return kBadInput;
      printKernelStats(llvm::errs(),
                       policy == "none" ? "without fusion"
                                        : "with fusion (" + policy.str() + ")",
                       collectKernelStats(*copy));
    }
  }
  if (options.remarks) {
    // The fusion decisions and the GEMM engine's plans, reported once
    // whatever else runs (a kernel cache hit skips the pipeline): the
    // phases up to `gpu`, on a copy.
    OwningOpRef<ModuleOp> copy = module->clone();
    PipelineOptions variant;
    configure(variant, options.fusion);
    variant.remarks = true;
    if ((!entryName.empty() && failed(selectEntry(*copy, entryName))) ||
        failed(runPipeline(*copy, Phase::Gpu, variant)))
      return kBadInput;
  }
  // Printing a phase compiles every public function unless --entry picks
  // one; a manifest describes exactly one entry.
  if (phase) {
    if (!entryName.empty() && failed(selectEntry(*module, entryName)))
      return kBadInput;
    return succeeded(printPhase(*module, *phase, pipeline)) ? kSuccess
                                                            : kBadInput;
  }
  if (options.output.empty())
    return kSuccess; // --stats or --remarks alone.
  FailureOr<func::FuncOp> entry = selectEntry(*module, entryName);
  if (failed(entry))
    return kBadInput;

  CompileOptions compileOptions;
  compileOptions.target = *target;
  compileOptions.entry = entry->getName().str();
  compileOptions.moduleFileName =
      llvm::sys::path::filename(options.output).str();
  compileOptions.pipeline = &pipeline;
  std::unique_ptr<::uta::runtime::KernelCache> cache = openKernelCacheOrWarn();
  FailureOr<CachedCompileResult> compiled =
      compileWithCache(*module, *entry, compileOptions, cache.get());
  if (failed(compiled))
    return kBadInput;
  const CompiledGraph *graph = &compiled->graph;

  // The manifest goes last: a manifest on disk means its module is complete.
  std::string manifestPath = options.output + ".json";
  llvm::sys::fs::remove(manifestPath);
  if (failed(writeFileAtomically(options.output, graph->module)) ||
      failed(writeFileAtomically(manifestPath, graph->manifest))) {
    llvm::sys::fs::remove(options.output);
    return kBadInput;
  }
  return kSuccess;
}
