//===- VulkanMemory.cpp - Vulkan buffers, memory and copies ---------------===//
//
// VulkanBackend's buffers: each is a VkBuffer bound to memory of its own,
// placed in device memory (mapped directly where the host can see it,
// otherwise reached through staging buffers) or in host memory (staging,
// scalars), and kept in a table of handles under a lock of its own. Also
// the copies between host and device, which go through the backend's one
// command buffer under the submission mutex.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/VulkanBackend.h"

#include "runtime/vulkan/VulkanInternal.h"

#include <algorithm>
#include <cstring>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

std::optional<uint32_t>
VulkanBackend::findMemoryType(uint32_t allowedTypes,
                              VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
    if ((allowedTypes & (1u << i)) &&
        (memoryProperties_.memoryTypes[i].propertyFlags & flags) == flags)
      return i;
  return std::nullopt;
}

Expected<VulkanBackend::Allocation>
VulkanBackend::createBuffer(uint64_t bytes, Placement placement) {
  const VulkanSymbols &vk = loader_->api();
  Allocation allocation;
  allocation.bytes = bytes;
  VkBufferCreateInfo bufferInfo = {};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  // Vulkan has no empty buffers; a zero-byte tensor still gets a word.
  bufferInfo.size = std::max<uint64_t>(bytes, 4);
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  UTA_TRY(UTA_VK(*loader_, vkCreateBuffer, device_, &bufferInfo, nullptr,
                 &allocation.buffer));
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(device_, allocation.buffer, &requirements);

  const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags deviceFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  // Tried in order. On a discrete GPU, device memory the host can map sits
  // behind the PCIe BAR, where host reads are uncached and slow, so tensors
  // live in plain device memory and go through staging copies. Where device
  // memory is host memory (lavapipe, integrated GPUs) mapping it directly saves
  // the copies. Host memory the device reads over the bus is the last resort.
  bool discrete =
      properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  std::vector<VkMemoryPropertyFlags> choices;
  switch (placement) {
  case Placement::kDevice:
    if (discrete)
      choices = {deviceFlags, hostFlags};
    else
      choices = {deviceFlags | hostFlags, deviceFlags, hostFlags};
    break;
  case Placement::kHost:
    choices = {hostFlags};
    break;
  case Placement::kReadback:
    choices = {hostFlags | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, hostFlags};
    break;
  }
  VkResult result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  VkMemoryPropertyFlags chosenFlags = 0;
  for (VkMemoryPropertyFlags flags : choices) {
    std::optional<uint32_t> type =
        findMemoryType(requirements.memoryTypeBits, flags);
    if (!type)
      continue;
    VkMemoryAllocateInfo allocInfo = {};
    allocInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocInfo.allocationSize = requirements.size;
    allocInfo.memoryTypeIndex = *type;
    result =
        vk.vkAllocateMemory(device_, &allocInfo, nullptr, &allocation.memory);
    if (result == VK_SUCCESS) {
      chosenFlags = memoryProperties_.memoryTypes[*type].propertyFlags;
      break;
    }
    if (result != VK_ERROR_OUT_OF_DEVICE_MEMORY &&
        result != VK_ERROR_OUT_OF_HOST_MEMORY)
      break;
  }
  if (result != VK_SUCCESS) {
    vk.vkDestroyBuffer(device_, allocation.buffer, nullptr);
    return Status::error(ErrorCode::Internal,
                         "vkAllocateMemory: " + vulkanResultName(result) +
                             " (" + std::to_string(bytes) + " bytes)");
  }
  if (Status bound = UTA_VK(*loader_, vkBindBufferMemory, device_,
                            allocation.buffer, allocation.memory, 0);
      !bound) {
    destroyBuffer(allocation);
    return bound;
  }
  if ((chosenFlags & hostFlags) == hostFlags) {
    if (Status mapped =
            UTA_VK(*loader_, vkMapMemory, device_, allocation.memory, 0,
                   VK_WHOLE_SIZE, 0, &allocation.mapped);
        !mapped) {
      destroyBuffer(allocation);
      return mapped;
    }
  }
  return allocation;
}

void VulkanBackend::destroyBuffer(Allocation &allocation) {
  const VulkanSymbols &vk = loader_->api();
  if (allocation.buffer)
    vk.vkDestroyBuffer(device_, allocation.buffer, nullptr);
  if (allocation.memory)
    vk.vkFreeMemory(device_, allocation.memory, nullptr);
  allocation = Allocation();
}

Expected<DeviceBuffer> VulkanBackend::allocate(uint64_t bytes, uint64_t) {
  // Each buffer is its own VkBuffer bound at offset 0: the memory
  // requirements' alignment covers anything a manifest asks for.
  Expected<Allocation> allocation = createBuffer(bytes, Placement::kDevice);
  if (!allocation)
    return allocation.status();
  std::lock_guard<std::mutex> lock(allocationsMutex_);
  uint64_t handle = nextHandle_++;
  allocations_[handle] = *allocation;
  return DeviceBuffer{handle, bytes};
}

void VulkanBackend::release(DeviceBuffer buffer) {
  Allocation allocation;
  {
    std::lock_guard<std::mutex> lock(allocationsMutex_);
    auto it = allocations_.find(buffer.handle);
    if (it == allocations_.end())
      return;
    allocation = it->second;
    allocations_.erase(it);
  }
  // A run waits for its command buffer, so nothing still uses the buffer.
  destroyBuffer(allocation);
}

std::optional<VulkanBackend::Allocation>
VulkanBackend::findAllocation(uint64_t handle) const {
  std::lock_guard<std::mutex> lock(allocationsMutex_);
  auto it = allocations_.find(handle);
  if (it == allocations_.end())
    return std::nullopt;
  return it->second;
}

Status VulkanBackend::copyBuffer(VkBuffer from, VkBuffer to, uint64_t bytes) {
  const VulkanSymbols &vk = loader_->api();
  std::lock_guard<std::mutex> lock(queueMutex_);
  return submitAndWait([&](VkCommandBuffer commands) {
    // Earlier shader writes (a run) and transfers finish before the copy.
    VkMemoryBarrier before = {};
    before.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    before.srcAccessMask =
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    before.dstAccessMask =
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(
        commands,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
    VkBufferCopy region = {0, 0, bytes};
    vk.vkCmdCopyBuffer(commands, from, to, 1, &region);
    VkMemoryBarrier after = {};
    after.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                            nullptr, 0, nullptr);
  });
}

Status VulkanBackend::upload(DeviceBuffer buffer,
                             std::span<const std::byte> data) {
  std::optional<Allocation> found = findAllocation(buffer.handle);
  if (!found)
    return Status::error(ErrorCode::Internal, "upload: unknown buffer");
  const Allocation &target = *found;
  if (data.size() > target.bytes)
    return Status::error(ErrorCode::Internal,
                         "upload: " + std::to_string(data.size()) +
                             " bytes into a buffer of " +
                             std::to_string(target.bytes));
  if (data.empty())
    return Status();
  if (target.mapped) {
    std::memcpy(target.mapped, data.data(), data.size());
    return Status();
  }
  Expected<Allocation> staging = createBuffer(data.size(), Placement::kHost);
  if (!staging)
    return staging.status();
  std::memcpy(staging->mapped, data.data(), data.size());
  Status copied = copyBuffer(staging->buffer, target.buffer, data.size());
  destroyBuffer(*staging);
  return copied;
}

Status VulkanBackend::download(DeviceBuffer buffer, std::span<std::byte> data) {
  std::optional<Allocation> found = findAllocation(buffer.handle);
  if (!found)
    return Status::error(ErrorCode::Internal, "download: unknown buffer");
  const Allocation &source = *found;
  if (data.size() > source.bytes)
    return Status::error(ErrorCode::Internal,
                         "download: " + std::to_string(data.size()) +
                             " bytes from a buffer of " +
                             std::to_string(source.bytes));
  if (data.empty())
    return Status();
  if (source.mapped) {
    std::memcpy(data.data(), source.mapped, data.size());
    return Status();
  }
  Expected<Allocation> staging =
      createBuffer(data.size(), Placement::kReadback);
  if (!staging)
    return staging.status();
  Status copied = copyBuffer(source.buffer, staging->buffer, data.size());
  if (copied)
    std::memcpy(data.data(), staging->mapped, data.size());
  destroyBuffer(*staging);
  return copied;
}
