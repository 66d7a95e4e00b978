//===- VulkanBackend.h - Runs SPIR-V modules through Vulkan -----*- C++ -*-===//
//
// The Vulkan implementation of Backend (docs/targets.md): the
// instance and device (a GPU when there is one, else a CPU implementation
// such as Mesa's lavapipe; --device=N picks among them in that order), one
// compute queue, a compute pipeline per kernel of a manifest, descriptor
// sets laid out as the manifest's bindings say (scalars in small storage
// buffers of their own, as MLIR's SPIR-V lowering passes them), and one
// command buffer per run of the whole launch sequence, with a barrier
// between dispatches and, with timings, a timestamp around each.
//
// Before anything reaches the driver, the module is validated by
// SPIRV-Tools (SpirvValidate.h) and checked against the manifest
// (SpirvReflect.h): entry points, workgroup sizes, the bindings each entry
// point uses, and the capabilities the device must offer; a mismatch is an
// error, never undefined behaviour in the driver.
//
// Buffers live in device-local memory; where that memory is also visible to
// the host (CPU devices, integrated GPUs, resizable BAR) they are mapped
// and copied directly, otherwise through a staging buffer.
//
// Thread-safe: any number of threads may allocate, copy, load and run at
// once. The one queue, its command buffer and fence, and each executable's
// descriptor and query pools are used under one submission mutex (a run
// holds it from writing its descriptor sets until its fence signals); the
// table of allocations has a lock of its own; mapped copies need neither.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_VULKAN_VULKANBACKEND_H
#define UTA_RUNTIME_VULKAN_VULKANBACKEND_H

#include "runtime/core/Backend.h"
#include "runtime/vulkan/VulkanLoader.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace uta::runtime::vulkan {

class VulkanBackend final : public Backend {
public:
  /// Opens the loader (`library`), an instance and device `options.device`
  /// in the order GPUs first, then CPU implementations. Fails with
  /// Unavailable, in one line starting "the vulkan backend is not available
  /// here: ", when there is no loader, driver or device; with InvalidInput
  /// when the device index is out of range.
  static Expected<std::unique_ptr<VulkanBackend>>
  create(const BackendOptions &options,
         const char *library = VulkanLoader::kDefaultLibrary);
  ~VulkanBackend() override;

  const char *name() const override { return "vulkan"; }
  std::string deviceDescription() const override;
  /// maxComputeWorkGroupCount, maxComputeWorkGroupSize and
  /// maxComputeWorkGroupInvocations; no dynamic shared memory;
  /// maxPerStageDescriptorStorageBuffers arguments (each argument, scalars
  /// too, is a storage buffer); maxStorageBufferRange bytes a buffer.
  DeviceLimits limits() const override;

  Expected<DeviceBuffer> allocate(uint64_t bytes, uint64_t alignment) override;
  void release(DeviceBuffer buffer) override;
  Status upload(DeviceBuffer buffer, std::span<const std::byte> data) override;
  Status download(DeviceBuffer buffer, std::span<std::byte> data) override;

  Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte> image) override;
  Status run(Executable &executable, std::span<const DeviceBuffer> buffers,
             std::vector<KernelTiming> *timings) override;

  /// One Vulkan buffer and its memory.
  struct Allocation {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    /// Mapped for the buffer's lifetime when host-visible; null otherwise.
    void *mapped = nullptr;
    uint64_t bytes = 0;
  };
  /// Where a buffer lives: device memory, host memory the host writes and
  /// the device reads (upload staging, scalars), or host memory the device
  /// writes and the host reads (download staging; cached where offered).
  enum class Placement { kDevice, kHost, kReadback };
  Expected<Allocation> createBuffer(uint64_t bytes, Placement placement);
  void destroyBuffer(Allocation &allocation);

  const VulkanLoader &loader() const { return *loader_; }
  VkDevice device() const { return device_; }

private:
  VulkanBackend() = default;
  /// Records `record` into the backend's command buffer, submits it and
  /// waits for it; queueMutex_ must be held.
  template <typename Record> Status submitAndWait(Record record);
  /// The allocation behind `handle`, or nullopt.
  std::optional<Allocation> findAllocation(uint64_t handle) const;
  /// Copies `bytes` between buffers on the device and waits.
  Status copyBuffer(VkBuffer from, VkBuffer to, uint64_t bytes);
  std::optional<uint32_t> findMemoryType(uint32_t allowedTypes,
                                         VkMemoryPropertyFlags flags) const;

  std::unique_ptr<VulkanLoader> loader_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_ = {};
  VkPhysicalDeviceMemoryProperties memoryProperties_ = {};
  uint32_t timestampValidBits_ = 0;

  /// What the device was created with (SPIR-V capabilities need them).
  struct Features {
    bool float16 = false;
    bool storageBuffer16 = false;
    bool int16 = false;
    bool int64 = false;
    bool float64 = false;
  } features_;

  /// Held for every use of queue_, commandBuffer_, fence_ and of an
  /// executable's descriptor and query pools.
  std::mutex queueMutex_;
  mutable std::mutex allocationsMutex_;
  std::map<uint64_t, Allocation> allocations_; // guarded by allocationsMutex_
  uint64_t nextHandle_ = 1;                    // guarded by allocationsMutex_

  friend class VulkanExecutable;
};

/// VulkanBackend::create as a plain Backend, for backend tables.
Expected<std::unique_ptr<Backend>>
createVulkanBackend(const BackendOptions &options);

} // namespace uta::runtime::vulkan

#endif // UTA_RUNTIME_VULKAN_VULKANBACKEND_H
