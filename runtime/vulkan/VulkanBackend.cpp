//===- VulkanBackend.cpp - The Vulkan instance and device -----------------===//
//
// VulkanBackend's life: create() opens the loader, an instance and the
// device that --device=N names (GPUs first, then CPU implementations such as
// lavapipe), enables the features our SPIR-V modules may need where the
// device offers them, and makes the one compute queue's command pool,
// command buffer and fence; the destructor releases them. Buffers and
// copies are in VulkanMemory.cpp, modules and pipelines in
// VulkanPipelines.cpp, runs in VulkanDispatch.cpp.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/VulkanBackend.h"

#include <algorithm>
#include <cstring>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

namespace {

const char *deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete gpu";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated gpu";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual gpu";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "cpu";
  default:
    return "other";
  }
}

/// The order devices are numbered in: GPUs first, CPU implementations last
/// (rank kLowestDeviceRank).
constexpr int kLowestDeviceRank = 4;
int deviceRank(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return kLowestDeviceRank;
  default:
    return 3;
  }
}

std::string formatVersion(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

/// A device that can run our modules: Vulkan 1.1, a compute queue.
struct Candidate {
  VkPhysicalDevice device;
  VkPhysicalDeviceProperties properties;
  uint32_t queueFamily;
  uint32_t timestampValidBits;
};

} // namespace

Expected<std::unique_ptr<VulkanBackend>>
VulkanBackend::create(const BackendOptions &options, const char *library) {
  auto unavailable = [](const std::string &why) {
    return Status::error(ErrorCode::Unavailable,
                         "the vulkan backend is not available here: " + why);
  };
  Expected<std::unique_ptr<VulkanLoader>> opened = VulkanLoader::open(library);
  if (!opened)
    return unavailable(opened.status().message());
  std::unique_ptr<VulkanBackend> backend(new VulkanBackend());
  backend->loader_ = std::move(*opened);
  VulkanLoader &loader = *backend->loader_;

  // SPIR-V 1.3 and 16-bit storage are core in Vulkan 1.1.
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (loader.api().vkEnumerateInstanceVersion)
    loader.api().vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1)
    return unavailable("the Vulkan loader supports only Vulkan " +
                       formatVersion(loaderVersion) + " (1.1 needed)");
  VkApplicationInfo app = {};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "uta";
  app.pEngineName = "uta";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instanceInfo = {};
  instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instanceInfo.pApplicationInfo = &app;
  VkResult created = loader.api().vkCreateInstance(&instanceInfo, nullptr,
                                                   &backend->instance_);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
    return unavailable("no Vulkan driver (vkCreateInstance: "
                       "VK_ERROR_INCOMPATIBLE_DRIVER)");
  if (Status status = VulkanLoader::check(created, "vkCreateInstance"); !status)
    return unavailable(status.message());
  if (Status status = loader.loadInstance(backend->instance_); !status)
    return unavailable(status.message());
  const VulkanSymbols &vk = loader.api();

  uint32_t count = 0;
  UTA_TRY(UTA_VK(loader, vkEnumeratePhysicalDevices, backend->instance_, &count,
                 nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  if (count)
    UTA_TRY(UTA_VK(loader, vkEnumeratePhysicalDevices, backend->instance_,
                   &count, devices.data()));
  std::vector<Candidate> candidates;
  for (VkPhysicalDevice device : devices) {
    Candidate candidate = {device, {}, 0, 0};
    vk.vkGetPhysicalDeviceProperties(device, &candidate.properties);
    if (candidate.properties.apiVersion < VK_API_VERSION_1_1)
      continue;
    uint32_t families = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &families,
                                                props.data());
    bool found = false;
    for (uint32_t i = 0; i < families && !found; ++i) {
      if (props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        candidate.queueFamily = i;
        candidate.timestampValidBits = props[i].timestampValidBits;
        found = true;
      }
    }
    if (found)
      candidates.push_back(candidate);
  }
  if (candidates.empty())
    return unavailable(devices.empty()
                           ? "no Vulkan device"
                           : "no Vulkan 1.1 device with a compute queue");
  // By rank, in enumeration order within one (a pass per rank: the
  // temporary buffer of std::stable_sort is deprecated in the C++ library
  // clang builds against here).
  std::vector<Candidate> ranked;
  for (int rank = 0; rank <= kLowestDeviceRank; ++rank)
    for (const Candidate &candidate : candidates)
      if (deviceRank(candidate.properties.deviceType) == rank)
        ranked.push_back(candidate);
  candidates = std::move(ranked);
  if (options.device < 0 || size_t(options.device) >= candidates.size())
    return Status::error(
        ErrorCode::InvalidInput,
        "device " + std::to_string(options.device) + " does not exist (" +
            std::to_string(candidates.size()) + " vulkan device" +
            (candidates.size() == 1 ? "" : "s") +
            " here, numbered from 0, GPUs first)");
  const Candidate &chosen = candidates[options.device];
  backend->physicalDevice_ = chosen.device;
  backend->properties_ = chosen.properties;
  backend->queueFamily_ = chosen.queueFamily;
  backend->timestampValidBits_ = chosen.timestampValidBits;
  vk.vkGetPhysicalDeviceMemoryProperties(chosen.device,
                                         &backend->memoryProperties_);

  // The features our modules may need (SPIR-V capabilities), enabled where
  // the device has them; load() refuses a module that needs a missing one.
  uint32_t extensionCount = 0;
  UTA_TRY(UTA_VK(loader, vkEnumerateDeviceExtensionProperties, chosen.device,
                 nullptr, &extensionCount, nullptr));
  std::vector<VkExtensionProperties> extensions(extensionCount);
  UTA_TRY(UTA_VK(loader, vkEnumerateDeviceExtensionProperties, chosen.device,
                 nullptr, &extensionCount, extensions.data()));
  bool hasFloat16Extension = std::any_of(
      extensions.begin(), extensions.end(), [](const VkExtensionProperties &e) {
        return std::strcmp(e.extensionName,
                           VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME) == 0;
      });
  bool float16Core = chosen.properties.apiVersion >= VK_API_VERSION_1_2;
  VkPhysicalDeviceShaderFloat16Int8Features float16 = {};
  float16.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  VkPhysicalDevice16BitStorageFeatures storage16 = {};
  storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  if (float16Core || hasFloat16Extension)
    storage16.pNext = &float16;
  VkPhysicalDeviceFeatures2 features = {};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &storage16;
  vk.vkGetPhysicalDeviceFeatures2(chosen.device, &features);

  Features &enabled = backend->features_;
  enabled.float16 = float16.shaderFloat16;
  enabled.storageBuffer16 = storage16.storageBuffer16BitAccess;
  enabled.int16 = features.features.shaderInt16;
  enabled.int64 = features.features.shaderInt64;
  enabled.float64 = features.features.shaderFloat64;
  VkPhysicalDeviceShaderFloat16Int8Features enableFloat16 = {};
  enableFloat16.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  enableFloat16.shaderFloat16 = enabled.float16;
  VkPhysicalDevice16BitStorageFeatures enableStorage16 = {};
  enableStorage16.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  enableStorage16.storageBuffer16BitAccess = enabled.storageBuffer16;
  if (enabled.float16)
    enableStorage16.pNext = &enableFloat16;
  VkPhysicalDeviceFeatures2 enableFeatures = {};
  enableFeatures.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  enableFeatures.pNext = &enableStorage16;
  enableFeatures.features.shaderInt16 = enabled.int16;
  enableFeatures.features.shaderInt64 = enabled.int64;
  enableFeatures.features.shaderFloat64 = enabled.float64;
  std::vector<const char *> enabledExtensions;
  if (enabled.float16 && !float16Core)
    enabledExtensions.push_back(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = {};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = chosen.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo = {};
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.pNext = &enableFeatures;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = uint32_t(enabledExtensions.size());
  deviceInfo.ppEnabledExtensionNames = enabledExtensions.data();
  UTA_TRY(UTA_VK(loader, vkCreateDevice, chosen.device, &deviceInfo, nullptr,
                 &backend->device_));
  UTA_TRY(loader.loadDevice(backend->device_));
  vk.vkGetDeviceQueue(backend->device_, chosen.queueFamily, 0,
                      &backend->queue_);

  VkCommandPoolCreateInfo poolInfo = {};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = chosen.queueFamily;
  UTA_TRY(UTA_VK(loader, vkCreateCommandPool, backend->device_, &poolInfo,
                 nullptr, &backend->commandPool_));
  VkCommandBufferAllocateInfo commandInfo = {};
  commandInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  commandInfo.commandPool = backend->commandPool_;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  UTA_TRY(UTA_VK(loader, vkAllocateCommandBuffers, backend->device_,
                 &commandInfo, &backend->commandBuffer_));
  VkFenceCreateInfo fenceInfo = {};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  UTA_TRY(UTA_VK(loader, vkCreateFence, backend->device_, &fenceInfo, nullptr,
                 &backend->fence_));
  return backend;
}

VulkanBackend::~VulkanBackend() {
  if (!loader_)
    return;
  const VulkanSymbols &vk = loader_->api();
  if (device_) {
    vk.vkDeviceWaitIdle(device_);
    for (auto &[handle, allocation] : allocations_)
      destroyBuffer(allocation);
    if (fence_)
      vk.vkDestroyFence(device_, fence_, nullptr);
    if (commandPool_)
      vk.vkDestroyCommandPool(device_, commandPool_, nullptr);
    vk.vkDestroyDevice(device_, nullptr);
  }
  if (instance_)
    vk.vkDestroyInstance(instance_, nullptr);
}

DeviceLimits VulkanBackend::limits() const {
  const VkPhysicalDeviceLimits &device = properties_.limits;
  DeviceLimits limits;
  for (int d = 0; d < 3; ++d) {
    limits.maxGrid[d] = device.maxComputeWorkGroupCount[d];
    limits.maxBlock[d] = device.maxComputeWorkGroupSize[d];
  }
  limits.maxThreadsPerBlock = device.maxComputeWorkGroupInvocations;
  limits.maxDynamicSharedBytes = 0;
  limits.maxKernelArguments = device.maxPerStageDescriptorStorageBuffers;
  limits.maxBufferBytes = device.maxStorageBufferRange;
  return limits;
}

std::string VulkanBackend::deviceDescription() const {
  return std::string(properties_.deviceName) + " (" +
         deviceTypeName(properties_.deviceType) + ", Vulkan " +
         formatVersion(properties_.apiVersion) + ")";
}

Expected<std::unique_ptr<Backend>>
uta::runtime::vulkan::createVulkanBackend(const BackendOptions &options) {
  Expected<std::unique_ptr<VulkanBackend>> backend =
      VulkanBackend::create(options);
  if (!backend)
    return backend.status();
  return std::unique_ptr<Backend>(std::move(*backend));
}
