//===- VulkanInternal.h - Shared by the Vulkan backend's files --*- C++ -*-===//
//
// What VulkanBackend.cpp, VulkanMemory.cpp, VulkanPipelines.cpp and
// VulkanDispatch.cpp share beyond VulkanBackend.h: the executable a loaded
// module becomes, and VulkanBackend::submitAndWait, a template that copies
// (VulkanMemory.cpp) and runs (VulkanDispatch.cpp) both instantiate.
// Internal to runtime/vulkan.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_VULKAN_VULKANINTERNAL_H
#define UTA_RUNTIME_VULKAN_VULKANINTERNAL_H

#include "runtime/vulkan/VulkanBackend.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uta::runtime::vulkan {

/// A module loaded for one manifest: a pipeline per kernel, what each launch
/// binds and the storage buffers of the scalars among it, a descriptor pool
/// for one run.
class VulkanExecutable final : public Executable {
public:
  explicit VulkanExecutable(VulkanBackend &backend) : backend(&backend) {}
  ~VulkanExecutable() override;

  /// One descriptor a launch binds: a manifest buffer or a scalar's buffer.
  struct Binding {
    uint32_t set = 0, binding = 0;
    /// Position in Manifest::buffers; -1 for a scalar.
    int64_t bufferPosition = -1;
    /// Index into `scalars` for a scalar.
    size_t scalar = 0;
  };
  struct Kernel {
    std::string name;
    /// Index = descriptor set number (empty layouts fill gaps).
    std::vector<VkDescriptorSetLayout> setLayouts;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    /// The (set, binding) of each argument.
    std::vector<std::pair<uint32_t, uint32_t>> slots;
  };

  VulkanBackend *backend;
  VkShaderModule module = VK_NULL_HANDLE;
  std::vector<Kernel> kernels;
  std::vector<VulkanBackend::Allocation> scalars;
  std::vector<LaunchDesc> launches;
  /// Per launch: the descriptors it binds.
  std::vector<std::vector<Binding>> launchBindings;
  size_t numBuffers = 0;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  /// Two timestamps per launch; null when the queue has none.
  VkQueryPool queries = VK_NULL_HANDLE;
};

template <typename Record> Status VulkanBackend::submitAndWait(Record record) {
  const VulkanSymbols &vk = loader_->api();
  UTA_TRY(UTA_VK(*loader_, vkResetCommandBuffer, commandBuffer_, 0));
  VkCommandBufferBeginInfo begin = {};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  UTA_TRY(UTA_VK(*loader_, vkBeginCommandBuffer, commandBuffer_, &begin));
  record(commandBuffer_);
  UTA_TRY(UTA_VK(*loader_, vkEndCommandBuffer, commandBuffer_));
  UTA_TRY(UTA_VK(*loader_, vkResetFences, device_, 1, &fence_));
  VkSubmitInfo submit = {};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commandBuffer_;
  UTA_TRY(UTA_VK(*loader_, vkQueueSubmit, queue_, 1, &submit, fence_));
  (void)vk;
  return UTA_VK(*loader_, vkWaitForFences, device_, 1, &fence_, VK_TRUE,
                UINT64_MAX);
}

} // namespace uta::runtime::vulkan

#endif // UTA_RUNTIME_VULKAN_VULKANINTERNAL_H
