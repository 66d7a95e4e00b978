//===- MlirFuzzer.cpp - libFuzzer harness of the .mlir front end ----------===//
//
// Feeds arbitrary text to the compiler the way utac reads and compiles a
// file, in this process: InputModule::parse (lib/Driver: the input bounds,
// MLIR's parser and verifier with every UTA dialect), then, for a module
// that verifies, selectEntry and compile (lib/Compiler) to each target, PTX,
// SPIR-V and MSL, with utac's default options, and the float64 reference
// (what `utac run --backend=reference` runs) under a 4 MiB memory budget,
// so that only small graphs are interpreted and large ones meet the budget
// check. Each input is written to a scratch file first, because utac's
// entry reads a path. Errors are
// expected (utac prints them on stderr); a crash, a sanitizer report, an
// exit or a hang is a bug. A graph that compiles must yield a manifest the
// runtime's reader accepts (parseManifest): what the compiler writes, the
// runtime must read.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Compile.h"
#include "lib/Driver/Input.h"
#include "lib/Reference/Interpreter.h"
#include "runtime/core/Manifest.h"

#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <vector>

#include <unistd.h>

using namespace mlir;
using namespace mlir::uta;

static void check(bool holds, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "MlirFuzzer: %s\n", what);
  std::abort();
}

/// Compiles a copy of `module` for `target` as utac does with default flags.
static void compileFor(ModuleOp module, Target target) {
  OwningOpRef<ModuleOp> copy = module.clone();
  FailureOr<func::FuncOp> entry = selectEntry(*copy, "");
  if (failed(entry))
    return;
  PipelineOptions pipeline;
  pipeline.tensorCores = target == Target::Ptx;
  CompileOptions options;
  options.target = target;
  options.entry = entry->getName().str();
  options.moduleFileName = "fuzz.module";
  options.pipeline = &pipeline;
  FailureOr<CompiledGraph> graph = compile(*copy, *entry, options);
  if (failed(graph))
    return;
  ::uta::runtime::Expected<::uta::runtime::Manifest> manifest =
      ::uta::runtime::parseManifest(graph->manifest, "fuzz.json", ".");
  if (!manifest.ok())
    std::fprintf(stderr, "%s\n", manifest.status().message().c_str());
  check(manifest.ok(), "the runtime refuses a manifest the compiler wrote");
}

/// The reference budget of the fuzzer: small, so that inputs stay fast.
static constexpr uint64_t kReferenceBudget = uint64_t(4) << 20;

/// Interprets a copy of `module` as `utac run --backend=reference` does,
/// with arguments 0, 0.25, 0.5, ... (the values matter little here: the
/// kernels' memory accesses do), after the budget check that comes before
/// any argument is allocated.
static void interpretReference(ModuleOp module) {
  OwningOpRef<ModuleOp> copy = module.clone();
  FailureOr<func::FuncOp> entry = selectEntry(*copy, "");
  if (failed(entry) ||
      failed(reference::checkMemoryBudget(*entry, kReferenceBudget)))
    return;
  std::vector<reference::RefTensor> args;
  for (Type type : entry->getArgumentTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return;
    reference::RefTensor arg;
    arg.shape = tensor.getShape().vec();
    arg.data.resize(size_t(tensor.getNumElements()));
    for (size_t i = 0; i < arg.data.size(); ++i)
      arg.data[i] = double(i % 16) * 0.25;
    args.push_back(std::move(arg));
  }
  reference::InterpretOptions options;
  options.memoryBudget = kReferenceBudget;
  (void)reference::interpret(*entry, args, options);
}

namespace {
/// The folder of the scratch file each input is written to: one per
/// process, removed at exit.
struct ScratchFolder {
  ScratchFolder() {
    path = std::filesystem::temp_directory_path() /
           ("uta-mlir-fuzz-" + std::to_string(::getpid()));
    std::error_code error;
    std::filesystem::create_directories(path, error);
    check(!error, "cannot create the scratch folder");
  }
  ~ScratchFolder() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
  std::filesystem::path path;
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ScratchFolder folder;
  static const std::string path = (folder.path / "input.mlir").string();
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char *>(data),
               static_cast<std::streamsize>(size));
    file.close();
    check(file.good(), "cannot write the scratch file");
  }
  std::unique_ptr<InputModule> input = InputModule::parse(path, "MlirFuzzer");
  if (!input)
    return 0;
  // The compiles run one pass at a time: libFuzzer runs one input at once.
  input->getContext().disableMultithreading();
  for (Target target : {Target::Ptx, Target::Spirv, Target::Msl})
    compileFor(*input->getModule(), target);
  interpretReference(*input->getModule());
  return 0;
}
