//===- VulkanLoader.h - libvulkan loaded at run time ------------*- C++ -*-===//
//
// The Vulkan loader is never linked, so uta-run and utac start on machines
// without one (they then say, in one line, that the vulkan backend is not
// available). libvulkan.so.1 is opened with dlopen; vkGetInstanceProcAddr is
// its one exported entry point we look up by name, and every other function
// the runtime calls is listed once below and resolved through it (instance
// functions) or through vkGetDeviceProcAddr (device functions, which then
// skip the loader's dispatch). vulkan.h is used for its types only.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_VULKAN_VULKANLOADER_H
#define UTA_RUNTIME_VULKAN_VULKANLOADER_H

#include "runtime/core/Status.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <memory>
#include <string>

namespace uta::runtime::vulkan {

/// X(name, required): functions resolved with a null instance.
#define UTA_VK_GLOBAL_SYMBOLS(X)                                               \
  X(vkCreateInstance, true)                                                    \
  X(vkEnumerateInstanceVersion, false)

/// X(name, required): instance functions.
#define UTA_VK_INSTANCE_SYMBOLS(X)                                             \
  X(vkDestroyInstance, true)                                                   \
  X(vkEnumeratePhysicalDevices, true)                                          \
  X(vkGetPhysicalDeviceProperties, true)                                       \
  X(vkGetPhysicalDeviceFeatures2, true)                                        \
  X(vkGetPhysicalDeviceQueueFamilyProperties, true)                            \
  X(vkGetPhysicalDeviceMemoryProperties, true)                                 \
  X(vkEnumerateDeviceExtensionProperties, true)                                \
  X(vkCreateDevice, true)                                                      \
  X(vkGetDeviceProcAddr, true)

/// X(name): device functions (all required).
#define UTA_VK_DEVICE_SYMBOLS(X)                                               \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkUnmapMemory)                                                             \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkResetDescriptorPool)                                                     \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkFreeCommandBuffers)                                                      \
  X(vkResetCommandBuffer)                                                      \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkQueueSubmit)                                                             \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkResetFences)                                                             \
  X(vkWaitForFences)

/// The resolved entry points.
struct VulkanSymbols {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define UTA_VK_DECLARE(name, ...) PFN_##name name = nullptr;
  UTA_VK_GLOBAL_SYMBOLS(UTA_VK_DECLARE)
  UTA_VK_INSTANCE_SYMBOLS(UTA_VK_DECLARE)
  UTA_VK_DEVICE_SYMBOLS(UTA_VK_DECLARE)
#undef UTA_VK_DECLARE
};

/// "VK_ERROR_DEVICE_LOST", or "VkResult -13" for codes it does not know.
std::string vulkanResultName(VkResult result);

/// The opened loader and the functions resolved so far.
class VulkanLoader {
public:
  static constexpr const char *kDefaultLibrary = "libvulkan.so.1";

  /// Opens `library` and resolves vkGetInstanceProcAddr and the global
  /// functions. Fails with Unavailable when there is no loader.
  static Expected<std::unique_ptr<VulkanLoader>>
  open(const char *library = kDefaultLibrary);

  /// Resolves the instance functions of `instance`.
  Status loadInstance(VkInstance instance);
  /// Resolves the device functions of `device`.
  Status loadDevice(VkDevice device);

  const VulkanSymbols &api() const { return api_; }

  /// Ok for VK_SUCCESS; otherwise an error naming `call` and the result:
  /// "vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY".
  static Status check(VkResult result, const char *call,
                      ErrorCode code = ErrorCode::Internal);

  // The library stays open: unloading a loader with live objects is not
  // safe, and dlopen counts repeated opens.
  VulkanLoader(const VulkanLoader &) = delete;
  VulkanLoader &operator=(const VulkanLoader &) = delete;

private:
  VulkanLoader() = default;
  void *handle_ = nullptr;
  VulkanSymbols api_;
};

} // namespace uta::runtime::vulkan

/// Calls a Vulkan function through `loader` (a VulkanLoader) and turns the
/// VkResult into a Status naming the call: UTA_VK(loader, vkCreateFence, ...).
#define UTA_VK(loader, fn, ...)                                                \
  ::uta::runtime::vulkan::VulkanLoader::check((loader).api().fn(__VA_ARGS__),  \
                                              #fn)

#endif // UTA_RUNTIME_VULKAN_VULKANLOADER_H
