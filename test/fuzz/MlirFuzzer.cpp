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

#include "lib/Driver/Input.h"
#include "test/fuzz/CompileChecks.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

using namespace mlir;
using namespace mlir::uta;

/// The reference budget of the fuzzer: small, so that inputs stay fast.
static constexpr uint64_t kReferenceBudget = uint64_t(4) << 20;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ::uta::fuzz::ScratchFolder folder("MlirFuzzer");
  static const std::string path = (folder.path / "input.mlir").string();
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char *>(data),
               static_cast<std::streamsize>(size));
    file.close();
    ::uta::fuzz::check(file.good(), "MlirFuzzer",
                       "cannot write the scratch file");
  }
  std::unique_ptr<InputModule> input = InputModule::parse(path, "MlirFuzzer");
  if (!input)
    return 0;
  // The compiles run one pass at a time: libFuzzer runs one input at once.
  input->getContext().disableMultithreading();
  for (Target target : {Target::Ptx, Target::Spirv, Target::Msl})
    ::uta::fuzz::compileAndReadManifest(*input->getModule(), target,
                                        "MlirFuzzer");
  ::uta::fuzz::interpretWithBudget(*input->getModule(), kReferenceBudget);
  return 0;
}
