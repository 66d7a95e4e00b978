//===- CompileChecks.h - What the graph fuzzers do with a graph -----------===//
//
// MlirFuzzer and GraphFuzzer both hand a parsed graph to the compiler and to
// the float64 reference, as utac does, and hold the compiler to one promise:
// a manifest it writes is one the runtime reads. Header-only: each harness
// is its own executable.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TEST_FUZZ_COMPILECHECKS_H
#define UTA_TEST_FUZZ_COMPILECHECKS_H

#include "lib/Compiler/Compile.h"
#include "lib/Reference/Interpreter.h"
#include "runtime/core/Manifest.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace uta::fuzz {

/// Aborts, naming `fuzzer` and `what`, unless `holds`: libFuzzer reports an
/// abort as a crash and keeps the input.
inline void check(bool holds, const char *fuzzer, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "%s: %s\n", fuzzer, what);
  std::abort();
}

/// Compiles a copy of `module` for `target` as utac does with default flags
/// (tensor cores on for PTX); a manifest it writes must parse.
inline void compileAndReadManifest(mlir::ModuleOp module,
                                   mlir::uta::Target target,
                                   const char *fuzzer) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::FailureOr<mlir::func::FuncOp> entry = mlir::uta::selectEntry(*copy, "");
  if (mlir::failed(entry))
    return;
  mlir::uta::PipelineOptions pipeline;
  pipeline.tensorCores = target == mlir::uta::Target::Ptx;
  mlir::uta::CompileOptions options;
  options.target = target;
  options.entry = entry->getName().str();
  options.moduleFileName = "fuzz.module";
  options.pipeline = &pipeline;
  mlir::FailureOr<mlir::uta::CompiledGraph> graph =
      mlir::uta::compile(*copy, *entry, options);
  if (mlir::failed(graph))
    return;
  runtime::Expected<runtime::Manifest> manifest =
      runtime::parseManifest(graph->manifest, "fuzz.json", ".");
  if (!manifest.ok())
    std::fprintf(stderr, "%s\n", manifest.status().message().c_str());
  check(manifest.ok(), fuzzer,
        "the runtime refuses a manifest the compiler wrote");
}

/// Interprets a copy of `module` as `utac run --backend=reference` does,
/// after the budget check that comes before any argument is allocated,
/// with arguments -1, -0.5, ..., 2 repeated (the values matter little here:
/// the kernels' memory accesses do).
inline void interpretWithBudget(mlir::ModuleOp module, uint64_t budget) {
  namespace reference = mlir::uta::reference;
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::FailureOr<mlir::func::FuncOp> entry = mlir::uta::selectEntry(*copy, "");
  if (mlir::failed(entry) ||
      mlir::failed(reference::checkMemoryBudget(*entry, budget)))
    return;
  std::vector<reference::RefTensor> args;
  for (mlir::Type type : entry->getArgumentTypes()) {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return;
    reference::RefTensor arg;
    arg.shape = tensor.getShape().vec();
    arg.data.resize(size_t(tensor.getNumElements()));
    for (size_t i = 0; i < arg.data.size(); ++i)
      arg.data[i] = double(i % 7) * 0.5 - 1.0;
    args.push_back(std::move(arg));
  }
  reference::InterpretOptions options;
  options.memoryBudget = budget;
  (void)reference::interpret(*entry, args, options);
}

/// A folder of its own for the process's scratch files (utac's entry reads
/// a path), removed at exit.
struct ScratchFolder {
  ScratchFolder(const char *fuzzer) {
    path = std::filesystem::temp_directory_path() /
           (std::string("uta-") + fuzzer + "-" + std::to_string(::getpid()));
    std::error_code error;
    std::filesystem::create_directories(path, error);
    check(!error, fuzzer, "cannot create the scratch folder");
  }
  ~ScratchFolder() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
  std::filesystem::path path;
};

} // namespace uta::fuzz

#endif // UTA_TEST_FUZZ_COMPILECHECKS_H
