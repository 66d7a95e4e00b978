//===- VulkanBackend.cpp - Runs SPIR-V modules through Vulkan -------------===//

#include "runtime/vulkan/VulkanBackend.h"

#include "runtime/vulkan/SpirvReflect.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

#define UTA_TRY(expr)                                                          \
  do {                                                                         \
    Status utaTryStatus = (expr);                                              \
    if (!utaTryStatus.isOk())                                                  \
      return utaTryStatus;                                                     \
  } while (false)

namespace {

/// "[256, 1, 1]".
std::string formatDims(const uint32_t *dims) {
  std::string text = "[";
  for (int i = 0; i < 3; ++i) {
    text += std::to_string(dims[i]);
    text += i < 2 ? ", " : "]";
  }
  return text;
}

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

/// The order devices are numbered in: GPUs first, CPU implementations last.
int deviceRank(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return 4;
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

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

StatusOr<std::unique_ptr<VulkanBackend>>
VulkanBackend::create(const BackendOptions &options, const char *library) {
  auto unavailable = [](const std::string &why) {
    return Status::error("the vulkan backend is not available here: " + why,
                         ErrorKind::kUnavailable);
  };
  StatusOr<std::unique_ptr<VulkanLoader>> opened = VulkanLoader::open(library);
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
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) {
                     return deviceRank(a.properties.deviceType) <
                            deviceRank(b.properties.deviceType);
                   });
  if (options.device < 0 || size_t(options.device) >= candidates.size())
    return Status::error("device " + std::to_string(options.device) +
                         " does not exist (" +
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

std::string VulkanBackend::deviceDescription() const {
  return std::string(properties_.deviceName) + " (" +
         deviceTypeName(properties_.deviceType) + ", Vulkan " +
         formatVersion(properties_.apiVersion) + ")";
}

StatusOr<std::unique_ptr<Backend>>
uta::runtime::vulkan::createVulkanBackend(const BackendOptions &options) {
  StatusOr<std::unique_ptr<VulkanBackend>> backend =
      VulkanBackend::create(options);
  if (!backend)
    return backend.status();
  return std::unique_ptr<Backend>(std::move(*backend));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

std::optional<uint32_t>
VulkanBackend::findMemoryType(uint32_t allowedTypes,
                              VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
    if ((allowedTypes & (1u << i)) &&
        (memoryProperties_.memoryTypes[i].propertyFlags & flags) == flags)
      return i;
  return std::nullopt;
}

StatusOr<VulkanBackend::Allocation>
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
    return Status::error("vkAllocateMemory: " + vulkanResultName(result) +
                             " (" + std::to_string(bytes) + " bytes)",
                         ErrorKind::kInternal);
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

StatusOr<DeviceBuffer> VulkanBackend::allocate(uint64_t bytes, uint64_t) {
  // Each buffer is its own VkBuffer bound at offset 0: the memory
  // requirements' alignment covers anything a manifest asks for.
  StatusOr<Allocation> allocation = createBuffer(bytes, Placement::kDevice);
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
    return Status::error("upload: unknown buffer", ErrorKind::kInternal);
  const Allocation &target = *found;
  if (data.size() > target.bytes)
    return Status::error("upload: " + std::to_string(data.size()) +
                             " bytes into a buffer of " +
                             std::to_string(target.bytes),
                         ErrorKind::kInternal);
  if (data.empty())
    return Status::ok();
  if (target.mapped) {
    std::memcpy(target.mapped, data.data(), data.size());
    return Status::ok();
  }
  StatusOr<Allocation> staging = createBuffer(data.size(), Placement::kHost);
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
    return Status::error("download: unknown buffer", ErrorKind::kInternal);
  const Allocation &source = *found;
  if (data.size() > source.bytes)
    return Status::error("download: " + std::to_string(data.size()) +
                             " bytes from a buffer of " +
                             std::to_string(source.bytes),
                         ErrorKind::kInternal);
  if (data.empty())
    return Status::ok();
  if (source.mapped) {
    std::memcpy(data.data(), source.mapped, data.size());
    return Status::ok();
  }
  StatusOr<Allocation> staging =
      createBuffer(data.size(), Placement::kReadback);
  if (!staging)
    return staging.status();
  Status copied = copyBuffer(source.buffer, staging->buffer, data.size());
  if (copied)
    std::memcpy(data.data(), staging->mapped, data.size());
  destroyBuffer(*staging);
  return copied;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

namespace uta::runtime::vulkan {
/// A module loaded for one manifest: a pipeline per kernel, the storage
/// buffers of its scalar arguments, a descriptor pool for one run.
class VulkanExecutable final : public Executable {
public:
  explicit VulkanExecutable(VulkanBackend &backend) : backend(&backend) {}
  ~VulkanExecutable() override;

  /// One descriptor of a kernel: a manifest buffer or a scalar's buffer.
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
    std::vector<Binding> bindings;
  };

  VulkanBackend *backend;
  VkShaderModule module = VK_NULL_HANDLE;
  std::vector<Kernel> kernels;
  std::vector<VulkanBackend::Allocation> scalars;
  std::vector<LaunchDesc> launches;
  size_t numBuffers = 0;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  /// Two timestamps per launch; null when the queue has none.
  VkQueryPool queries = VK_NULL_HANDLE;
};
} // namespace uta::runtime::vulkan

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
    const auto *begin = static_cast<const std::byte *>(data);
    bytes.insert(bytes.end(), begin, begin + size);
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
    break;
  }
  return bytes;
}

StatusOr<std::unique_ptr<Executable>>
VulkanBackend::load(const Manifest &manifest,
                    std::span<const std::byte> image) {
  const std::string where = manifest.path.empty() ? "manifest" : manifest.path;
  if (manifest.target != ModuleTarget::kSpirv)
    return Status::error(where +
                         ": the vulkan backend runs spirv modules, this one "
                         "is " +
                         moduleTargetName(manifest.target));
  StatusOr<SpirvModuleInfo> info = reflectSpirv(image);
  if (!info)
    return Status::error(where + ": module " + manifest.module + ": " +
                         info.status().message());

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
      return Status::error(where + ": the module needs " + need.feature +
                           ", which " + properties_.deviceName +
                           " does not offer");

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
    const std::string at = where + ": kernels[" + std::to_string(k) + "]";
    const SpirvEntryPoint *entry = info->findComputeEntryPoint(desc.entryPoint);
    if (!entry)
      return Status::error(at +
                           ".entry_point: the module has no GLCompute "
                           "entry point \"" +
                           desc.entryPoint + "\"");
    VulkanExecutable::Kernel kernel;
    kernel.name = desc.name;
    std::set<std::pair<uint32_t, uint32_t>> declared;
    uint32_t maxSet = 0;
    for (size_t j = 0; j < desc.args.size(); ++j) {
      const KernelArg &arg = desc.args[j];
      const std::string argAt = at + ".args[" + std::to_string(j) + "]";
      if (!arg.binding)
        return Status::error(argAt + ": expected \"binding\" (spirv target)");
      auto [set, binding] = *arg.binding;
      if (!declared.insert({set, binding}).second)
        return Status::error(argAt + ".binding: (set " + std::to_string(set) +
                             ", binding " + std::to_string(binding) +
                             ") is bound twice");
      if (set >= limits.maxBoundDescriptorSets)
        return Status::error(argAt + ".binding: set " + std::to_string(set) +
                             " is beyond the device's " +
                             std::to_string(limits.maxBoundDescriptorSets) +
                             " descriptor sets");
      maxSet = std::max(maxSet, set);
      VulkanExecutable::Binding slot;
      slot.set = set;
      slot.binding = binding;
      if (arg.kind == KernelArg::Kind::kBuffer) {
        slot.bufferPosition =
            manifest.findBuffer(arg.buffer) - manifest.buffers.data();
      } else {
        // MLIR's lowering reads each scalar from a storage buffer of its own.
        std::vector<std::byte> bytes = scalarBytes(arg);
        StatusOr<Allocation> scalar =
            createBuffer(bytes.size(), Placement::kHost);
        if (!scalar)
          return scalar.status();
        std::memcpy(scalar->mapped, bytes.data(), bytes.size());
        slot.scalar = executable->scalars.size();
        executable->scalars.push_back(*scalar);
      }
      kernel.bindings.push_back(slot);
    }
    if (desc.args.size() > limits.maxPerStageDescriptorStorageBuffers)
      return Status::error(
          at + ".args: " + std::to_string(desc.args.size()) +
          " storage buffers, the device allows " +
          std::to_string(limits.maxPerStageDescriptorStorageBuffers));
    for (std::pair<uint32_t, uint32_t> used : entry->bindings)
      if (!declared.count(used))
        return Status::error(at + ": entry point \"" + desc.entryPoint +
                             "\" uses descriptor (set " +
                             std::to_string(used.first) + ", binding " +
                             std::to_string(used.second) +
                             "), which no argument binds");

    uint32_t numSets = desc.args.empty() ? 0 : maxSet + 1;
    for (uint32_t set = 0; set < numSets; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
      for (const VulkanExecutable::Binding &slot : kernel.bindings) {
        if (slot.set != set)
          continue;
        VkDescriptorSetLayoutBinding layoutBinding = {};
        layoutBinding.binding = slot.binding;
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
      return Status::error(at + ": " + made.message(), made.kind());
    setsPerKernel.push_back(added.setLayouts.size());
  }

  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    const std::string at = where + ": launches[" + std::to_string(l) + "]";
    const KernelDesc &desc = manifest.kernels[launch.kernelIndex];
    const SpirvEntryPoint *entry = info->findComputeEntryPoint(desc.entryPoint);
    if (entry->localSize && *entry->localSize != launch.block)
      return Status::error(at + ".block: " + formatDims(launch.block.data()) +
                           ", but entry point \"" + desc.entryPoint +
                           "\" has workgroup size " +
                           formatDims(entry->localSize->data()));
    uint64_t invocations =
        uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    if (invocations > limits.maxComputeWorkGroupInvocations)
      return Status::error(
          at + ".block: " + std::to_string(invocations) +
          " invocations, the device allows " +
          std::to_string(limits.maxComputeWorkGroupInvocations));
    for (int i = 0; i < 3; ++i) {
      if (launch.block[i] > limits.maxComputeWorkGroupSize[i])
        return Status::error(at + ".block: " + formatDims(launch.block.data()) +
                             " exceeds the device's workgroup size " +
                             formatDims(limits.maxComputeWorkGroupSize));
      if (launch.grid[i] > limits.maxComputeWorkGroupCount[i])
        return Status::error(at + ".grid: " + formatDims(launch.grid.data()) +
                             " exceeds the device's workgroup count " +
                             formatDims(limits.maxComputeWorkGroupCount));
    }
    if (launch.sharedBytes != 0)
      return Status::error(at + ".shared_bytes: Vulkan kernels have no "
                                "dynamic shared memory");
    totalSets += setsPerKernel[launch.kernelIndex];
    totalDescriptors += manifest.kernels[launch.kernelIndex].args.size();
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
    return Status::error("run: " + std::to_string(buffers.size()) +
                             " buffers for a manifest of " +
                             std::to_string(executable.numBuffers),
                         ErrorKind::kInternal);
  if (timings && !executable.queries && !executable.launches.empty())
    return Status::error(std::string("--profile: ") + properties_.deviceName +
                         " has no timestamps on its compute queue");

  // The executable's descriptor and query pools serve one run at a time; the
  // lock is held until the run's fence signals.
  std::lock_guard<std::mutex> lock(queueMutex_);
  UTA_TRY(UTA_VK(*loader_, vkResetDescriptorPool, device_, executable.pool, 0));
  const size_t numLaunches = executable.launches.size();
  std::vector<std::vector<VkDescriptorSet>> sets(numLaunches);
  size_t numWrites = 0;
  for (const LaunchDesc &launch : executable.launches)
    numWrites += executable.kernels[launch.kernelIndex].bindings.size();
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
    for (const VulkanExecutable::Binding &slot : kernel.bindings) {
      const Allocation *allocation = nullptr;
      std::optional<Allocation> found;
      if (slot.bufferPosition >= 0) {
        found = findAllocation(buffers[slot.bufferPosition].handle);
        if (!found)
          return Status::error("run: a buffer that this backend did not "
                               "allocate",
                               ErrorKind::kInternal);
        allocation = &*found;
      } else {
        allocation = &executable.scalars[slot.scalar];
      }
      if (allocation->bytes > limits.maxStorageBufferRange)
        return Status::error(
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
      uint64_t ticks = (stamps[2 * l + 1] - stamps[2 * l]) & mask;
      KernelTiming timing;
      timing.launch = l;
      timing.kernel = executable.launches[l].kernel;
      timing.milliseconds = double(ticks) * limits.timestampPeriod / 1.0e6;
      timings->push_back(timing);
    }
  }
  return Status::ok();
}
