//===- Manifest.h - The manifest utac writes beside a module ----*- C++ -*-===//
//
// A manifest (docs/manifest.md) tells a runtime everything it
// needs to run a compiled module without the compiler: the buffers (arguments,
// results, intermediates, constants), the kernels with their ABI arguments in
// order, and the launch sequence, each launch with the arguments it passes.
// This file holds the parsed form and the reader, which checks the whole
// document up front, so that a backend never sees a dangling buffer id or an
// unknown kernel. Every error names the file and the key path, e.g.
// `out.json: kernels[0].args[2]: expected "kind"`.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_MANIFEST_H
#define UTA_RUNTIME_CORE_MANIFEST_H

#include "runtime/core/Status.h"
#include "runtime/core/UntrustedFile.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uta::runtime {

/// The element types a compiled graph moves.
enum class ElementType { kF32, kF16, kBF16 };

/// "f32", "f16", "bf16".
const char *elementTypeName(ElementType type);
/// The inverse of elementTypeName; nullopt for anything else.
std::optional<ElementType> parseElementType(std::string_view name);
/// Bytes of one element: 4 or 2.
size_t elementTypeSize(ElementType type);

/// What a module was compiled to.
enum class ModuleTarget { kPtx, kSpirv, kMsl };
const char *moduleTargetName(ModuleTarget target);

enum class BufferRole { kArgument, kResult, kIntermediate, kConstant };
const char *bufferRoleName(BufferRole role);

struct BufferDesc {
  int64_t id = 0;
  BufferRole role = BufferRole::kIntermediate;
  /// Argument or result position; -1 for intermediates and constants.
  int64_t index = -1;
  ElementType type = ElementType::kF32;
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
  uint64_t alignment = 1;
  /// Constants only: the contents in the element type's storage (raw
  /// little-endian bits, C order), exactly `bytes` long.
  std::vector<std::byte> constantData;

  uint64_t numElements() const;
};

/// One kernel ABI parameter.
struct KernelArg {
  /// kTensorMap: a TMA descriptor of a buffer (PTX only), encoded by the
  /// CUDA backend before each launch and passed by value (128 bytes).
  enum class Kind { kBuffer, kI32, kI64, kF32, kTensorMap };
  Kind kind = Kind::kBuffer;
  /// kBuffer, kTensorMap: the buffer id.
  int64_t buffer = -1;
  /// kTensorMap: the elements one copy moves along each dimension of the
  /// buffer, outermost first (1 to 256 each).
  std::vector<int64_t> box;
  /// kTensorMap: 0, or the 64- or 128-byte swizzle of the box's rows.
  int64_t swizzle = 0;
  /// kI32, kI64: the value.
  int64_t intValue = 0;
  /// kF32: the value.
  float floatValue = 0.0f;
  /// SPIR-V: descriptor set and binding.
  std::optional<std::array<uint32_t, 2>> binding;
  /// MSL: buffer index.
  std::optional<uint32_t> bufferIndex;
};

struct KernelDesc {
  std::string name;
  std::string entryPoint;
  std::vector<KernelArg> args;
};

struct LaunchDesc {
  std::string kernel;
  /// Position of `kernel` in Manifest::kernels.
  size_t kernelIndex = 0;
  /// What the launch passes: the launch's own `args` (version 2), which
  /// differ from its kernel's only in buffer ids and scalar values, or else
  /// a copy of the kernel's. Set by parseManifest.
  std::vector<KernelArg> args;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t sharedBytes = 0;
  /// Buffer ids the runtime fills with zero bytes right before the launch
  /// (PTX only): the counters of kernels whose blocks hand values to each
  /// other through global memory. Intermediates, a multiple of 4 bytes.
  std::vector<int64_t> zeroed;
  /// Their positions in Manifest::buffers, set by parseManifest.
  std::vector<size_t> zeroedPositions;
  /// Pairs of buffer ids (input, result) whose input the launch's kernel
  /// reads only where it then writes the result (optional `in_place`): the
  /// input may live in the result's memory when the launch is its last
  /// reader and the result's first writer (WorkspacePlan.h). Each buffer of
  /// a pair is another, of equal size.
  std::vector<std::pair<int64_t, int64_t>> inPlace;
  /// Their positions in Manifest::buffers, set by parseManifest.
  std::vector<std::pair<size_t, size_t>> inPlacePositions;
  /// Blocks per thread block cluster along each axis (PTX for sm_90 or
  /// sm_90a): the launch goes through cuLaunchKernelEx with this cluster
  /// shape, which divides the grid and holds at most 8 blocks (the size
  /// every sm_90 device supports). Unset: a plain launch.
  std::optional<std::array<uint32_t, 3>> cluster;
  /// What the compiler counted for the launch (optional `cost`): its
  /// kernel's operations by unit ("simt", "tf32", "3xtf32", "bf16",
  /// "f16"; a multiply-add is two) and the bytes it must read and write.
  /// Profiles divide them by the launch's time.
  struct Cost {
    std::vector<std::pair<std::string, int64_t>> flops;
    int64_t bytesRead = 0, bytesWritten = 0;
  };
  std::optional<Cost> cost;
  /// The GEMM engine's plan of the launch's kernel (optional `plan`): how
  /// a block computes its tile, which profiles show beside the kernel.
  struct Plan {
    /// The name of the engine's table row; empty where the plan is none.
    std::string row;
    std::string schedule, precision;
    std::array<int64_t, 3> tile = {0, 0, 0};
    std::array<int64_t, 2> warps = {0, 0};
    int64_t stages = 0, bStages = 0;
  };
  std::optional<Plan> plan;
};

struct Manifest {
  /// The file the manifest was read from (for messages); may be empty.
  std::string path;
  /// The folder that `module` (and constant data files) are relative to.
  std::string directory;

  ModuleTarget target = ModuleTarget::kPtx;
  /// "80", "86", "89", "90", "90a" for PTX; empty otherwise.
  std::string sm;
  std::string entry;
  std::string module;
  std::vector<BufferDesc> buffers;
  std::vector<KernelDesc> kernels;
  std::vector<LaunchDesc> launches;
  /// Buffer ids, in result order.
  std::vector<int64_t> results;

  /// The buffer with this id, or null.
  const BufferDesc *findBuffer(int64_t id) const;
  /// Positions in `buffers` of the argument buffers, in argument order.
  std::vector<size_t> argumentBuffers() const;
  /// Positions in `buffers` of the result buffers, in result order.
  std::vector<size_t> resultBuffers() const;
  /// `directory`/`module`.
  std::string modulePath() const;
};

/// Parses and checks a manifest. `path` names it in messages and is kept in
/// Manifest::path; `directory` is where the module and data files live.
/// Constant data held in sibling files is read from `directory`.
Expected<Manifest> parseManifest(std::string_view text, std::string path,
                                 std::string directory);

/// Reads and parses the manifest at `path`; the module lives next to it.
Expected<Manifest> readManifest(const std::string &path);

/// The module image of `manifest` (readFileInFolder of UntrustedFile.h, at
/// most kMaxModuleBytes). Manifests, their modules and data files are
/// untrusted input (docs/runtime.md).
Expected<std::vector<std::byte>> readModule(const Manifest &manifest);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_MANIFEST_H
