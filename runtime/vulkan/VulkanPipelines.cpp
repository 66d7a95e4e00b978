//===- VulkanPipelines.cpp - SPIR-V modules into Vulkan pipelines ---------===//
//
// VulkanBackend::load: checks a SPIR-V module (SPIRV-Tools' validator) and
// checks it against its manifest and the device (entry points, bindings,
// the workgroup size each entry point declares, the features its
// capabilities need) before anything reaches the driver; the device's
// limits on launches are checked before, by the executor (LaunchCheck.h).
// Then makes the shader module, a descriptor set layout and compute
// pipeline per kernel, what each launch binds (the storage buffers of the
// scalar arguments among it), and the descriptor and timestamp query pools
// of one run. Also the executable's
// destructor.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/VulkanBackend.h"

#include "runtime/vulkan/SpirvReflect.h"
#include "runtime/vulkan/SpirvValidate.h"
#include "runtime/vulkan/VulkanInternal.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

/// "[256, 1, 1]".
static std::string formatDims(const uint32_t *dims) {
  std::string text = "[";
  for (int i = 0; i < 3; ++i) {
    text += std::to_string(dims[i]);
    text += i < 2 ? ", " : "]";
  }
  return text;
}

VulkanExecutable::~VulkanExecutable() {
  const VulkanSymbols &vk = backend->loader().api();
  VkDevice device = backend->device();
  {
    // vkDeviceWaitIdle uses the queue, which a run may be submitting to.
    std::lock_guard<std::mutex> lock(backend->queueMutex_);
    vk.vkDeviceWaitIdle(device);
  }
  for (Kernel &kernel : kernels) {
    if (kernel.pipeline)
      vk.vkDestroyPipeline(device, kernel.pipeline, nullptr);
    if (kernel.layout)
      vk.vkDestroyPipelineLayout(device, kernel.layout, nullptr);
    for (VkDescriptorSetLayout layout : kernel.setLayouts)
      vk.vkDestroyDescriptorSetLayout(device, layout, nullptr);
  }
  for (VulkanBackend::Allocation &scalar : scalars)
    backend->destroyBuffer(scalar);
  if (pool)
    vk.vkDestroyDescriptorPool(device, pool, nullptr);
  if (queries)
    vk.vkDestroyQueryPool(device, queries, nullptr);
  if (module)
    vk.vkDestroyShaderModule(device, module, nullptr);
}

/// The bytes a scalar argument's storage buffer holds.
static std::vector<std::byte> scalarBytes(const KernelArg &arg) {
  std::vector<std::byte> bytes;
  auto append = [&](const void *data, size_t size) {
    size_t offset = bytes.size();
    bytes.resize(offset + size);
    std::memcpy(bytes.data() + offset, data, size);
  };
  switch (arg.kind) {
  case KernelArg::Kind::kI32: {
    int32_t value = int32_t(arg.intValue);
    append(&value, sizeof(value));
    break;
  }
  case KernelArg::Kind::kI64:
    append(&arg.intValue, sizeof(arg.intValue));
    break;
  case KernelArg::Kind::kF32:
    append(&arg.floatValue, sizeof(arg.floatValue));
    break;
  case KernelArg::Kind::kBuffer:
  // The manifest reader refuses tensor maps outside PTX modules.
  case KernelArg::Kind::kTensorMap:
    break;
  }
  return bytes;
}

Expected<std::unique_ptr<Executable>>
VulkanBackend::load(const Manifest &manifest,
                    std::span<const std::byte> image) {
  const std::string where = manifest.path.empty() ? "manifest" : manifest.path;
  if (manifest.target != ModuleTarget::kSpirv)
    return Status::error(
        ErrorCode::InvalidInput,
        where +
            ": the vulkan backend runs spirv modules, this one "
            "is " +
            moduleTargetName(manifest.target));
  Expected<SpirvModuleInfo> info = reflectSpirv(image);
  if (!info)
    return Status::error(ErrorCode::InvalidInput, where + ": module " +
                                                      manifest.module + ": " +
                                                      info.status().message());
  // The whole module, by the rules a driver assumes and does not check.
  if (Status valid = validateSpirv(image); !valid)
    return Status::error(ErrorCode::InvalidInput, where + ": module " +
                                                      manifest.module + ": " +
                                                      valid.message());

  // The capabilities that need a device feature.
  struct Needed {
    uint32_t capability;
    bool offered;
    const char *feature;
  };
  const Needed needed[] = {
      {kCapabilityFloat16, features_.float16, "shaderFloat16 (f16)"},
      {kCapabilityStorageBuffer16BitAccess, features_.storageBuffer16,
       "storageBuffer16BitAccess (f16 buffers)"},
      {kCapabilityInt16, features_.int16, "shaderInt16"},
      {kCapabilityInt64, features_.int64, "shaderInt64"},
      {kCapabilityFloat64, features_.float64, "shaderFloat64"},
  };
  for (const Needed &need : needed)
    if (info->hasCapability(need.capability) && !need.offered)
      return Status::error(ErrorCode::InvalidInput,
                           where + ": the module needs " + need.feature +
                               ", which " + properties_.deviceName +
                               " does not offer");

  std::map<int64_t, uint64_t> bytesOfBuffer;
  std::map<int64_t, int64_t> positionOfId;
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    bytesOfBuffer.emplace(manifest.buffers[i].id, manifest.buffers[i].bytes);
    positionOfId.emplace(manifest.buffers[i].id, int64_t(i));
  }
  // The size of what each argument binds, against the variable `entry`
  // declares at its binding: a smaller buffer would be read and written past
  // its end. `at` names the arguments' owner.
  auto checkBoundBytes =
      [&](const SpirvEntryPoint &entry, const std::string &entryPoint,
          const std::vector<KernelArg> &args, const std::string &at) -> Status {
    for (size_t j = 0; j < args.size(); ++j) {
      const KernelArg &arg = args[j];
      if (!arg.binding)
        continue; // reported below
      auto needed =
          entry.bindingBytes.find({(*arg.binding)[0], (*arg.binding)[1]});
      if (needed == entry.bindingBytes.end())
        continue;
      uint64_t bound = scalarBytes(arg).size();
      if (arg.kind == KernelArg::Kind::kBuffer) {
        // The executor has resolved every id (LaunchCheck.h).
        auto buffer = bytesOfBuffer.find(arg.buffer);
        bound = buffer == bytesOfBuffer.end() ? 0 : buffer->second;
      }
      if (bound < needed->second)
        return Status::error(
            ErrorCode::InvalidInput,
            at + ".args[" + std::to_string(j) + "]: binds " +
                std::to_string(bound) + " bytes at (set " +
                std::to_string((*arg.binding)[0]) + ", binding " +
                std::to_string((*arg.binding)[1]) + "), where entry point \"" +
                entryPoint + "\" declares " + std::to_string(needed->second));
    }
    return Status();
  };
  // Every kernel's entry point and what its arguments and each launch's
  // bind, before the driver sees the module.
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelDesc &desc = manifest.kernels[k];
    const std::string at =
        where + ": kernels[" + std::to_string(k) + "] (" + desc.name + ")";
    const SpirvEntryPoint *entry = info->findComputeEntryPoint(desc.entryPoint);
    if (!entry)
      return Status::error(ErrorCode::InvalidInput,
                           at +
                               ".entry_point: the module has no GLCompute "
                               "entry point \"" +
                               desc.entryPoint + "\"");
    UTA_TRY(checkBoundBytes(*entry, desc.entryPoint, desc.args, at));
  }
  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    const KernelDesc &desc = manifest.kernels[launch.kernelIndex];
    UTA_TRY(checkBoundBytes(*info->findComputeEntryPoint(desc.entryPoint),
                            desc.entryPoint, launch.args,
                            where + ": launches[" + std::to_string(l) + "] (" +
                                launch.kernel + ")"));
  }

  const VulkanSymbols &vk = loader_->api();
  const VkPhysicalDeviceLimits &limits = properties_.limits;
  auto executable = std::make_unique<VulkanExecutable>(*this);
  executable->numBuffers = manifest.buffers.size();
  executable->launches = manifest.launches;

  VkShaderModuleCreateInfo moduleInfo = {};
  moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  moduleInfo.codeSize = image.size();
  std::vector<uint32_t> words(image.size() / 4);
  std::memcpy(words.data(), image.data(), image.size());
  moduleInfo.pCode = words.data();
  UTA_TRY(UTA_VK(*loader_, vkCreateShaderModule, device_, &moduleInfo, nullptr,
                 &executable->module));

  size_t totalDescriptors = 0, totalSets = 0;
  std::vector<size_t> setsPerKernel;
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const KernelDesc &desc = manifest.kernels[k];
    const std::string at =
        where + ": kernels[" + std::to_string(k) + "] (" + desc.name + ")";
    const SpirvEntryPoint *entry = info->findComputeEntryPoint(desc.entryPoint);
    VulkanExecutable::Kernel kernel;
    kernel.name = desc.name;
    std::set<std::pair<uint32_t, uint32_t>> declared;
    uint32_t maxSet = 0;
    for (size_t j = 0; j < desc.args.size(); ++j) {
      const KernelArg &arg = desc.args[j];
      const std::string argAt = at + ".args[" + std::to_string(j) + "]";
      if (!arg.binding)
        return Status::error(ErrorCode::InvalidInput,
                             argAt + ": expected \"binding\" (spirv target)");
      auto [set, binding] = *arg.binding;
      if (!declared.insert({set, binding}).second)
        return Status::error(ErrorCode::InvalidInput,
                             argAt + ".binding: (set " + std::to_string(set) +
                                 ", binding " + std::to_string(binding) +
                                 ") is bound twice");
      if (set >= limits.maxBoundDescriptorSets)
        return Status::error(ErrorCode::InvalidInput,
                             argAt + ".binding: set " + std::to_string(set) +
                                 " is beyond the device's " +
                                 std::to_string(limits.maxBoundDescriptorSets) +
                                 " descriptor sets");
      maxSet = std::max(maxSet, set);
      kernel.slots.push_back({set, binding});
    }
    for (std::pair<uint32_t, uint32_t> used : entry->bindings)
      if (!declared.count(used))
        return Status::error(ErrorCode::InvalidInput,
                             at + ": entry point \"" + desc.entryPoint +
                                 "\" uses descriptor (set " +
                                 std::to_string(used.first) + ", binding " +
                                 std::to_string(used.second) +
                                 "), which no argument binds");

    uint32_t numSets = desc.args.empty() ? 0 : maxSet + 1;
    for (uint32_t set = 0; set < numSets; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
      for (auto [slotSet, slotBinding] : kernel.slots) {
        if (slotSet != set)
          continue;
        VkDescriptorSetLayoutBinding layoutBinding = {};
        layoutBinding.binding = slotBinding;
        layoutBinding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        layoutBinding.descriptorCount = 1;
        layoutBinding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        layoutBindings.push_back(layoutBinding);
      }
      VkDescriptorSetLayoutCreateInfo layoutInfo = {};
      layoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
      layoutInfo.bindingCount = uint32_t(layoutBindings.size());
      layoutInfo.pBindings = layoutBindings.data();
      VkDescriptorSetLayout layout = VK_NULL_HANDLE;
      UTA_TRY(UTA_VK(*loader_, vkCreateDescriptorSetLayout, device_,
                     &layoutInfo, nullptr, &layout));
      kernel.setLayouts.push_back(layout);
    }
    VkPipelineLayoutCreateInfo pipelineLayoutInfo = {};
    pipelineLayoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pipelineLayoutInfo.setLayoutCount = uint32_t(kernel.setLayouts.size());
    pipelineLayoutInfo.pSetLayouts = kernel.setLayouts.data();
    // Register the kernel first, so its objects are destroyed on any error.
    executable->kernels.push_back(std::move(kernel));
    VulkanExecutable::Kernel &added = executable->kernels.back();
    UTA_TRY(UTA_VK(*loader_, vkCreatePipelineLayout, device_,
                   &pipelineLayoutInfo, nullptr, &added.layout));
    VkComputePipelineCreateInfo pipelineInfo = {};
    pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pipelineInfo.stage.sType =
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = executable->module;
    pipelineInfo.stage.pName = desc.entryPoint.c_str();
    pipelineInfo.layout = added.layout;
    if (Status made =
            UTA_VK(*loader_, vkCreateComputePipelines, device_, VK_NULL_HANDLE,
                   1, &pipelineInfo, nullptr, &added.pipeline);
        !made)
      return Status::error(made.code(), at + ": " + made.message());
    setsPerKernel.push_back(added.setLayouts.size());
  }

  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    const std::string at = where + ": launches[" + std::to_string(l) + "]";
    const KernelDesc &desc = manifest.kernels[launch.kernelIndex];
    const SpirvEntryPoint *entry = info->findComputeEntryPoint(desc.entryPoint);
    if (entry->localSize && *entry->localSize != launch.block)
      return Status::error(ErrorCode::InvalidInput,
                           at + ".block: " + formatDims(launch.block.data()) +
                               ", but entry point \"" + desc.entryPoint +
                               "\" has workgroup size " +
                               formatDims(entry->localSize->data()));
    totalSets += setsPerKernel[launch.kernelIndex];
    totalDescriptors += launch.args.size();
  }

  // What each launch binds: its buffers, and its scalars each in a storage
  // buffer (MLIR's lowering reads them so), one per distinct value.
  std::map<std::vector<std::byte>, size_t> scalarOfBytes;
  for (const LaunchDesc &launch : manifest.launches) {
    std::vector<VulkanExecutable::Binding> &bindings =
        executable->launchBindings.emplace_back();
    for (const KernelArg &arg : launch.args) {
      VulkanExecutable::Binding slot;
      slot.set = (*arg.binding)[0];
      slot.binding = (*arg.binding)[1];
      if (arg.kind == KernelArg::Kind::kBuffer) {
        slot.bufferPosition = positionOfId.at(arg.buffer);
      } else {
        std::vector<std::byte> bytes = scalarBytes(arg);
        auto [it, added] =
            scalarOfBytes.emplace(bytes, executable->scalars.size());
        if (added) {
          Expected<Allocation> scalar =
              createBuffer(bytes.size(), Placement::kHost);
          if (!scalar)
            return scalar.status();
          std::memcpy(scalar->mapped, bytes.data(), bytes.size());
          executable->scalars.push_back(*scalar);
        }
        slot.scalar = it->second;
      }
      bindings.push_back(slot);
    }
  }

  // Enough descriptors for every launch of one run; reset before each run.
  VkDescriptorPoolSize poolSize = {
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      uint32_t(std::max<size_t>(totalDescriptors, 1))};
  VkDescriptorPoolCreateInfo poolInfo = {};
  poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  poolInfo.maxSets = uint32_t(std::max<size_t>(totalSets, 1));
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  UTA_TRY(UTA_VK(*loader_, vkCreateDescriptorPool, device_, &poolInfo, nullptr,
                 &executable->pool));
  if (timestampValidBits_ > 0 && !manifest.launches.empty()) {
    VkQueryPoolCreateInfo queryInfo = {};
    queryInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = uint32_t(2 * manifest.launches.size());
    UTA_TRY(UTA_VK(*loader_, vkCreateQueryPool, device_, &queryInfo, nullptr,
                   &executable->queries));
  }
  (void)vk;
  return std::unique_ptr<Executable>(std::move(executable));
}
