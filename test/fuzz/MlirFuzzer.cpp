//===- MlirFuzzer.cpp - libFuzzer harness of the .mlir front end ----------===//
//
// Feeds arbitrary text to the compiler the way utac reads a file, in this
// process: MLIR's parser and verifier with every UTA dialect registered
// (registerUTADialects), then, for a module that verifies, selectEntry and
// compile (lib/Compiler) to each target, PTX, SPIR-V and MSL, with utac's
// default options. Errors are expected and swallowed; a crash, a sanitizer
// report, an exit or a hang is a bug. A graph that compiles must yield a
// manifest the runtime's reader accepts (parseManifest): what the compiler
// writes, the runtime must read.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Compile.h"
#include "lib/Compiler/InitAll.h"
#include "runtime/core/Manifest.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    registerUTADialects(*result);
    return result;
  }();
  // A fresh context per input, so that no input sees another's types and
  // attributes; one thread, as the fuzzer runs one input at a time.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler swallowErrors(&context,
                                        [](Diagnostic &) { return success(); });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;
  for (Target target : {Target::Ptx, Target::Spirv, Target::Msl})
    compileFor(*module, target);
  return 0;
}
