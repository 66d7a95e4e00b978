//===- ManifestFuzzer.cpp - libFuzzer harness of the manifest reader ------===//
//
// Feeds arbitrary text to parseManifest (runtime/core/Manifest), the reader
// of uta-run and the runtime library. Its files live in a scratch folder of
// this process holding one data file, data.bin, so that `data_file` is
// reached too. A manifest it accepts must keep the reader's promise
// (docs/manifest.md): every launch names a kernel at its kernelIndex, every
// buffer argument and result names a buffer, sizes agree with shapes, and
// constants hold exactly their bytes. Its workspace plan (in-place pairs
// included) must end and be sound: intermediates live at one launch apart,
// but an in-place pair, each within the workspace or in a result of its size.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Manifest.h"
#include "runtime/core/WorkspacePlan.h"

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
#include <vector>

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

/// The buffers joined by in-place pairs, by a representative: a chain's
/// members may share a slot, meeting only at their pairs' launches.
static std::vector<size_t> inPlaceGroups(const Manifest &manifest) {
  std::vector<size_t> group(manifest.buffers.size());
  for (size_t i = 0; i < group.size(); ++i)
    group[i] = i;
  auto find = [&](size_t i) {
    while (group[i] != i)
      i = group[i] = group[group[i]];
    return i;
  };
  for (const LaunchDesc &launch : manifest.launches)
    for (auto [input, output] : launch.inPlacePositions)
      group[find(input)] = find(output);
  for (size_t i = 0; i < group.size(); ++i)
    group[i] = find(i);
  return group;
}

static void checkPlan(const Manifest &manifest) {
  WorkspacePlan plan = planWorkspace(manifest);
  std::vector<LiveSpan> spans = computeLiveSpans(manifest);
  std::vector<size_t> groups = inPlaceGroups(manifest);
  const std::vector<BufferDesc> &buffers = manifest.buffers;
  for (size_t a = 0; a < buffers.size(); ++a) {
    if (buffers[a].role != BufferRole::kIntermediate)
      continue;
    if (size_t result = plan.storedIn[a];
        result != WorkspacePlan::kNotStoredIn) {
      check(result < buffers.size() &&
                buffers[result].role == BufferRole::kResult &&
                buffers[result].bytes == buffers[a].bytes,
            "an intermediate is stored in something but a result its size");
      continue;
    }
    check(plan.offsets[a] + buffers[a].bytes <= plan.bytes &&
              plan.offsets[a] % kMinWorkspaceAlignment == 0,
          "an intermediate lies outside the workspace or off its alignment");
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      if (buffers[b].role != BufferRole::kIntermediate ||
          plan.storedIn[b] != WorkspacePlan::kNotStoredIn)
        continue;
      bool live =
          spans[a].first <= spans[b].last && spans[b].first <= spans[a].last;
      bool overlap = plan.offsets[a] < plan.offsets[b] + buffers[b].bytes &&
                     plan.offsets[b] < plan.offsets[a] + buffers[a].bytes;
      check(!live || !overlap || groups[a] == groups[b],
            "two intermediates live at one launch overlap");
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ScratchFolder folder;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<Manifest> manifest = parseManifest(
      text, (folder.path / "fuzz.json").string(), folder.path.string());
  if (manifest.ok()) {
    checkAccepted(*manifest);
    checkPlan(*manifest);
  }
  return 0;
}
