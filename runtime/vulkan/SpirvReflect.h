//===- SpirvReflect.h - What the runtime checks in SPIR-V -------*- C++ -*-===//
//
// The Vulkan runtime checks a module against its manifest before anything
// reaches the driver (a pipeline made for an entry point that is not there,
// or a descriptor the layout lacks, is undefined behaviour in Vulkan, not an
// error). This reader walks the binary's instructions once and keeps only
// that: the capabilities, each entry point's name, execution model and
// workgroup size, the descriptor (set, binding) pairs that the entry
// point's call tree touches, and the bytes each of those descriptors'
// variables spans (from the sizes of its types, the arrays' strides and the
// members' offsets). It has no dependency on SPIRV-Tools or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_VULKAN_SPIRVREFLECT_H
#define UTA_RUNTIME_VULKAN_SPIRVREFLECT_H

#include "runtime/core/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace uta::runtime::vulkan {

/// SPIR-V enumerants the runtime looks at (from the SPIR-V specification).
enum SpirvCapability : uint32_t {
  kCapabilityFloat16 = 9,
  kCapabilityFloat64 = 10,
  kCapabilityInt64 = 11,
  kCapabilityInt16 = 22,
  kCapabilityInt8 = 39,
  kCapabilityStorageBuffer16BitAccess = 4433,
};
constexpr uint32_t kExecutionModelGLCompute = 5;

struct SpirvEntryPoint {
  std::string name;
  uint32_t executionModel = 0;
  /// From OpExecutionMode LocalSize; nullopt when the size is given another
  /// way (LocalSizeId, a WorkgroupSize constant).
  std::optional<std::array<uint32_t, 3>> localSize;
  /// The (set, binding) of every descriptor variable the entry point's
  /// functions load, store or index, sorted.
  std::vector<std::pair<uint32_t, uint32_t>> bindings;
  /// For those of `bindings` whose variable's type has a fixed layout (no
  /// runtime array), the bytes it spans: a buffer bound there must hold at
  /// least that many.
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> bindingBytes;
};

struct SpirvModuleInfo {
  /// 0x00010300 for SPIR-V 1.3.
  uint32_t version = 0;
  std::vector<uint32_t> capabilities;
  std::vector<SpirvEntryPoint> entryPoints;

  bool hasCapability(uint32_t capability) const;
  /// The GLCompute entry point called `name`, or null.
  const SpirvEntryPoint *findComputeEntryPoint(std::string_view name) const;
};

/// Reads `image`. Fails (InvalidInput) on anything that is not a
/// well-formed little-endian SPIR-V binary.
Expected<SpirvModuleInfo> reflectSpirv(std::span<const std::byte> image);

} // namespace uta::runtime::vulkan

#endif // UTA_RUNTIME_VULKAN_SPIRVREFLECT_H
