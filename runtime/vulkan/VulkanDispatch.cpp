//===- VulkanDispatch.cpp - Runs a launch sequence through Vulkan ---------===//
//
// VulkanBackend::run: writes each launch's descriptor sets, records the
// whole launch sequence into one command buffer (a barrier between
// dispatches, a timestamp around each when timings are asked for), submits
// it, waits for its fence, and reads the timestamps back.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/VulkanBackend.h"

#include "runtime/vulkan/VulkanInternal.h"

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

Status VulkanBackend::run(Executable &base,
                          std::span<const DeviceBuffer> buffers,
                          std::vector<KernelTiming> *timings) {
  auto &executable = static_cast<VulkanExecutable &>(base);
  const VulkanSymbols &vk = loader_->api();
  const VkPhysicalDeviceLimits &limits = properties_.limits;
  if (buffers.size() != executable.numBuffers)
    return Status::error(ErrorCode::Internal,
                         "run: " + std::to_string(buffers.size()) +
                             " buffers for a manifest of " +
                             std::to_string(executable.numBuffers));
  if (timings && !executable.queries && !executable.launches.empty())
    return Status::error(ErrorCode::InvalidInput,
                         std::string("--profile: ") + properties_.deviceName +
                             " has no timestamps on its compute queue");

  // The executable's descriptor and query pools serve one run at a time; the
  // lock is held until the run's fence signals.
  std::lock_guard<std::mutex> lock(queueMutex_);
  UTA_TRY(UTA_VK(*loader_, vkResetDescriptorPool, device_, executable.pool, 0));
  const size_t numLaunches = executable.launches.size();
  std::vector<std::vector<VkDescriptorSet>> sets(numLaunches);
  size_t numWrites = 0;
  for (const std::vector<VulkanExecutable::Binding> &bindings :
       executable.launchBindings)
    numWrites += bindings.size();
  // Reserved up front: the writes point into bufferInfos.
  std::vector<VkDescriptorBufferInfo> bufferInfos;
  std::vector<VkWriteDescriptorSet> writes;
  bufferInfos.reserve(numWrites);
  writes.reserve(numWrites);
  for (size_t l = 0; l < numLaunches; ++l) {
    const VulkanExecutable::Kernel &kernel =
        executable.kernels[executable.launches[l].kernelIndex];
    sets[l].resize(kernel.setLayouts.size());
    if (!sets[l].empty()) {
      VkDescriptorSetAllocateInfo allocInfo = {};
      allocInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
      allocInfo.descriptorPool = executable.pool;
      allocInfo.descriptorSetCount = uint32_t(kernel.setLayouts.size());
      allocInfo.pSetLayouts = kernel.setLayouts.data();
      UTA_TRY(UTA_VK(*loader_, vkAllocateDescriptorSets, device_, &allocInfo,
                     sets[l].data()));
    }
    for (const VulkanExecutable::Binding &slot : executable.launchBindings[l]) {
      const Allocation *allocation = nullptr;
      std::optional<Allocation> found;
      if (slot.bufferPosition >= 0) {
        found = findAllocation(buffers[slot.bufferPosition].handle);
        if (!found)
          return Status::error(ErrorCode::Internal,
                               "run: a buffer that this backend did not "
                               "allocate");
        allocation = &*found;
      } else {
        allocation = &executable.scalars[slot.scalar];
      }
      if (allocation->bytes > limits.maxStorageBufferRange)
        return Status::error(
            ErrorCode::InvalidInput,
            "kernel " + kernel.name + ": a buffer of " +
                std::to_string(allocation->bytes) + " bytes exceeds " +
                properties_.deviceName + "'s maxStorageBufferRange (" +
                std::to_string(limits.maxStorageBufferRange) + " bytes)");
      bufferInfos.push_back({allocation->buffer, 0, VK_WHOLE_SIZE});
      VkWriteDescriptorSet write = {};
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = sets[l][slot.set];
      write.dstBinding = slot.binding;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &bufferInfos.back();
      writes.push_back(write);
    }
  }
  if (!writes.empty())
    vk.vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(),
                              0, nullptr);

  VkQueryPool queries = timings ? executable.queries : VK_NULL_HANDLE;
  Status ran = submitAndWait([&](VkCommandBuffer commands) {
    auto barrier = [&](VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
                       VkPipelineStageFlags dstStages,
                       VkAccessFlags dstAccess) {
      VkMemoryBarrier memory = {};
      memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
      memory.srcAccessMask = srcAccess;
      memory.dstAccessMask = dstAccess;
      vk.vkCmdPipelineBarrier(commands, srcStages, dstStages, 0, 1, &memory, 0,
                              nullptr, 0, nullptr);
    };
    const VkAccessFlags shaderAccess =
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    if (queries)
      vk.vkCmdResetQueryPool(commands, queries, 0, uint32_t(2 * numLaunches));
    // Uploads (host writes, staging copies) before the first dispatch.
    barrier(VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shaderAccess);
    for (size_t l = 0; l < numLaunches; ++l) {
      const LaunchDesc &launch = executable.launches[l];
      const VulkanExecutable::Kernel &kernel =
          executable.kernels[launch.kernelIndex];
      if (queries)
        vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               queries, uint32_t(2 * l));
      vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                           kernel.pipeline);
      if (!sets[l].empty())
        vk.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                   kernel.layout, 0, uint32_t(sets[l].size()),
                                   sets[l].data(), 0, nullptr);
      vk.vkCmdDispatch(commands, launch.grid[0], launch.grid[1],
                       launch.grid[2]);
      if (queries)
        vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               queries, uint32_t(2 * l + 1));
      // Each launch sees the writes of the ones before it.
      barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, shaderAccess);
    }
    // Results to the host (mapped) or to a staging copy.
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  });
  if (!ran)
    return ran;

  if (queries) {
    std::vector<uint64_t> stamps(2 * numLaunches);
    UTA_TRY(UTA_VK(*loader_, vkGetQueryPoolResults, device_, queries, 0,
                   uint32_t(stamps.size()), stamps.size() * sizeof(uint64_t),
                   stamps.data(), sizeof(uint64_t),
                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    uint64_t mask = timestampValidBits_ >= 64
                        ? ~uint64_t(0)
                        : (uint64_t(1) << timestampValidBits_) - 1;
    for (size_t l = 0; l < numLaunches; ++l) {
      // From the previous dispatch's end, as on CUDA: the barrier between
      // two dispatches counts, and the dispatches' times add up to the run's.
      uint64_t start = l == 0 ? stamps[0] : stamps[2 * l - 1];
      uint64_t ticks = (stamps[2 * l + 1] - start) & mask;
      KernelTiming timing;
      timing.launch = l;
      timing.kernel = executable.launches[l].kernel;
      timing.milliseconds = double(ticks) * limits.timestampPeriod / 1.0e6;
      timings->push_back(timing);
    }
  }
  return Status();
}
