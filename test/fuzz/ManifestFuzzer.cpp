//===- ManifestFuzzer.cpp - libFuzzer harness of the manifest reader ------===//
//
// Feeds arbitrary text to parseManifest (runtime/core/Manifest), the reader
// of uta-run and the runtime library. Its files live in a scratch folder of
// this process holding one data file, data.bin, so that `data_file` is
// reached too. A manifest it accepts must keep the reader's promise
// (docs/manifest.md): every launch names a kernel at its kernelIndex, every
// buffer argument and result names a buffer, sizes agree with shapes, and
// constants hold exactly their bytes.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>

using namespace uta::runtime;

static void check(bool holds, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "ManifestFuzzer: %s\n", what);
  std::abort();
}

namespace {
/// The folder the manifests' files are looked up in: one per process, with
/// a 64-byte data.bin (enough for 16 f32 constants); removed at exit.
struct ScratchFolder {
  ScratchFolder() {
    path = std::filesystem::temp_directory_path() /
           ("uta-manifest-fuzz-" + std::to_string(::getpid()));
    std::error_code error;
    std::filesystem::create_directories(path, error);
    check(!error, "cannot create the scratch folder");
    std::ofstream data(path / "data.bin", std::ios::binary);
    for (int i = 0; i < 64; ++i)
      data.put(static_cast<char>(i));
    data.close();
    check(data.good(), "cannot write data.bin");
  }
  ~ScratchFolder() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
  std::filesystem::path path;
};
} // namespace

static void checkAccepted(const Manifest &manifest) {
  for (const BufferDesc &buffer : manifest.buffers) {
    check(buffer.bytes == buffer.numElements() * elementTypeSize(buffer.type),
          "a buffer's bytes disagree with its shape");
    check(buffer.alignment != 0 &&
              (buffer.alignment & (buffer.alignment - 1)) == 0,
          "a buffer's alignment is not a power of two");
    if (buffer.role == BufferRole::kConstant)
      check(buffer.constantData.size() == buffer.bytes,
            "a constant does not hold exactly its bytes");
  }
  for (const KernelDesc &kernel : manifest.kernels)
    for (const KernelArg &arg : kernel.args)
      if (arg.kind == KernelArg::Kind::kBuffer)
        check(manifest.findBuffer(arg.buffer) != nullptr,
              "a kernel argument names no buffer");
  for (const LaunchDesc &launch : manifest.launches) {
    check(launch.kernelIndex < manifest.kernels.size() &&
              manifest.kernels[launch.kernelIndex].name == launch.kernel,
          "a launch names no kernel");
    for (uint32_t size : launch.grid)
      check(size >= 1, "a launch has an empty grid");
    for (uint32_t size : launch.block)
      check(size >= 1, "a launch has an empty block");
  }
  for (int64_t id : manifest.results)
    check(manifest.findBuffer(id) != nullptr, "a result names no buffer");
  check(checkFileNameInFolder(manifest.module).ok(),
        "the module's name leaves the manifest's folder");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ScratchFolder folder;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<Manifest> manifest = parseManifest(
      text, (folder.path / "fuzz.json").string(), folder.path.string());
  if (manifest.ok())
    checkAccepted(*manifest);
  return 0;
}
