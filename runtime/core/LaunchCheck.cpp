//===- LaunchCheck.cpp - A manifest's launches against the device ---------===//
//
// Products of sizes are taken in 64 bits from 32-bit factors (grid and block
// sizes are uint32), so none of them can wrap.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/LaunchCheck.h"

#include <string>
#include <unordered_map>
#include <vector>

using namespace uta::runtime;

/// 8-byte parameter slots of a tensor map (CUDA's 128-byte CUtensorMap).
static constexpr uint64_t kTensorMapSlots = 16;

/// "[256, 1, 1]".
template <typename T> static std::string formatDims(const std::array<T, 3> &d) {
  // Built by appending: GCC 12 warns (-Wrestrict) wrongly where a string
  // literal is the left operand of + on a temporary string.
  std::string text = "[";
  text += std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
          std::to_string(d[2]) + "]";
  return text;
}

Status uta::runtime::checkLaunches(const Manifest &manifest,
                                   const DeviceLimits &limits) {
  const std::string where = manifest.path.empty() ? "manifest" : manifest.path;
  auto fail = [&](const std::string &what) {
    return Status::error(ErrorCode::InvalidInput, where + ": " + what);
  };

  // Which buffers some kernel binds, and the kernels' own limits.
  std::unordered_map<int64_t, size_t> positionOfId;
  for (size_t i = 0; i < manifest.buffers.size(); ++i)
    positionOfId.emplace(manifest.buffers[i].id, i);
  std::vector<bool> bound(manifest.buffers.size(), false);
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelDesc &kernel = manifest.kernels[k];
    std::string at = "kernels[" + std::to_string(k) + "] (" + kernel.name + ")";
    // A tensor map's 128 bytes take 16 of the 8-byte slots the limit counts.
    uint64_t slots = 0;
    for (const KernelArg &arg : kernel.args)
      slots += arg.kind == KernelArg::Kind::kTensorMap ? kTensorMapSlots : 1;
    if (slots > limits.maxKernelArguments)
      return fail(at + ".args: " + std::to_string(kernel.args.size()) +
                  " arguments" +
                  (slots != kernel.args.size()
                       ? " (" + std::to_string(slots) + " parameter slots)"
                       : std::string()) +
                  ", more than the device's " +
                  std::to_string(limits.maxKernelArguments) + " per kernel");
    for (size_t a = 0; a < kernel.args.size(); ++a) {
      const KernelArg &arg = kernel.args[a];
      if (arg.kind != KernelArg::Kind::kBuffer &&
          arg.kind != KernelArg::Kind::kTensorMap)
        continue;
      auto position = positionOfId.find(arg.buffer);
      if (position == positionOfId.end())
        return fail(at + ".args[" + std::to_string(a) +
                    "].buffer: no buffer with id " +
                    std::to_string(arg.buffer));
      bound[position->second] = true;
    }
  }
  // Launches bind buffers of their own (version 2).
  for (const LaunchDesc &launch : manifest.launches)
    for (const KernelArg &arg : launch.args) {
      if (arg.kind != KernelArg::Kind::kBuffer &&
          arg.kind != KernelArg::Kind::kTensorMap)
        continue;
      auto position = positionOfId.find(arg.buffer);
      if (position != positionOfId.end())
        bound[position->second] = true;
    }
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    const BufferDesc &buffer = manifest.buffers[i];
    if (bound[i] && buffer.bytes > limits.maxBufferBytes)
      return fail("buffers[" + std::to_string(i) +
                  "].bytes: " + std::to_string(buffer.bytes) +
                  " bytes, more than the device's largest buffer of " +
                  std::to_string(limits.maxBufferBytes) + " bytes");
  }

  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    std::string at =
        "launches[" + std::to_string(l) + "] (" + launch.kernel + ")";
    if (launch.kernelIndex >= manifest.kernels.size() ||
        manifest.kernels[launch.kernelIndex].name != launch.kernel)
      return fail(at + ".kernel: no kernel named \"" + launch.kernel + "\"");
    // An empty grid or block would launch nothing or fail in the driver; a
    // kernel over zero elements is not in the manifest at all.
    for (const auto &[key, dims] :
         {std::pair{".grid", &launch.grid}, std::pair{".block", &launch.block}})
      for (uint32_t size : *dims)
        if (size == 0)
          return fail(at + key + ": " + formatDims(*dims) +
                      " is empty (every size must be at least 1)");
    for (int d = 0; d < 3; ++d) {
      if (launch.grid[d] > limits.maxGrid[d])
        return fail(at + ".grid: " + formatDims(launch.grid) +
                    " exceeds the device's maximum grid " +
                    formatDims(limits.maxGrid));
      if (launch.block[d] > limits.maxBlock[d])
        return fail(at + ".block: " + formatDims(launch.block) +
                    " exceeds the device's maximum block " +
                    formatDims(limits.maxBlock));
    }
    uint64_t threads =
        uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    if (threads > limits.maxThreadsPerBlock)
      return fail(at + ".block: " + formatDims(launch.block) + " is " +
                  std::to_string(threads) +
                  " threads, more than the device's " +
                  std::to_string(limits.maxThreadsPerBlock) + " per block");
    if (launch.sharedBytes > limits.maxDynamicSharedBytes)
      return fail(at + ".shared_bytes: " + std::to_string(launch.sharedBytes) +
                  " bytes of dynamic shared memory, more than the device's " +
                  std::to_string(limits.maxDynamicSharedBytes));
  }
  return Status();
}
