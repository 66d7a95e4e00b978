//===- VulkanLoader.cpp - libvulkan loaded at run time --------------------===//

#include "runtime/vulkan/VulkanLoader.h"

#include <dlfcn.h>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

std::string uta::runtime::vulkan::vulkanResultName(VkResult result) {
  switch (result) {
#define UTA_VK_RESULT(code)                                                    \
  case code:                                                                   \
    return #code;
    UTA_VK_RESULT(VK_SUCCESS)
    UTA_VK_RESULT(VK_NOT_READY)
    UTA_VK_RESULT(VK_TIMEOUT)
    UTA_VK_RESULT(VK_INCOMPLETE)
    UTA_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    UTA_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    UTA_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    UTA_VK_RESULT(VK_ERROR_DEVICE_LOST)
    UTA_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    UTA_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    UTA_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    UTA_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    UTA_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    UTA_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    UTA_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    UTA_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    UTA_VK_RESULT(VK_ERROR_UNKNOWN)
    UTA_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    UTA_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    UTA_VK_RESULT(VK_ERROR_FRAGMENTATION)
    UTA_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef UTA_VK_RESULT
  default:
    return "VkResult " + std::to_string(int(result));
  }
}

Status VulkanLoader::check(VkResult result, const char *call, ErrorCode code) {
  if (result == VK_SUCCESS)
    return Status();
  return Status::error(code,
                       std::string(call) + ": " + vulkanResultName(result));
}

Expected<std::unique_ptr<VulkanLoader>>
VulkanLoader::open(const char *library) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error(ErrorCode::Unavailable,
                         std::string("no Vulkan loader (") +
                             (why ? why : library) + ")");
  }
  std::unique_ptr<VulkanLoader> loader(new VulkanLoader());
  loader->handle_ = handle;
  VulkanSymbols &api = loader->api_;
  api.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(handle, "vkGetInstanceProcAddr"));
  if (!api.vkGetInstanceProcAddr)
    return Status::error(ErrorCode::Unavailable,
                         std::string(library) +
                             " has no vkGetInstanceProcAddr");
#define UTA_VK_LOAD_GLOBAL(name, required)                                     \
  api.name = reinterpret_cast<PFN_##name>(                                     \
      api.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));                       \
  if (required && !api.name)                                                   \
    return Status::error(ErrorCode::Unavailable,                               \
                         std::string(library) + " has no " #name);
  UTA_VK_GLOBAL_SYMBOLS(UTA_VK_LOAD_GLOBAL)
#undef UTA_VK_LOAD_GLOBAL
  return loader;
}

Status VulkanLoader::loadInstance(VkInstance instance) {
#define UTA_VK_LOAD_INSTANCE(name, required)                                   \
  api_.name = reinterpret_cast<PFN_##name>(                                    \
      api_.vkGetInstanceProcAddr(instance, #name));                            \
  if (required && !api_.name)                                                  \
    return Status::error(ErrorCode::Unavailable,                               \
                         "the Vulkan loader has no " #name);
  UTA_VK_INSTANCE_SYMBOLS(UTA_VK_LOAD_INSTANCE)
#undef UTA_VK_LOAD_INSTANCE
  return Status();
}

Status VulkanLoader::loadDevice(VkDevice device) {
#define UTA_VK_LOAD_DEVICE(name)                                               \
  api_.name =                                                                  \
      reinterpret_cast<PFN_##name>(api_.vkGetDeviceProcAddr(device, #name));   \
  if (!api_.name)                                                              \
    return Status::error(ErrorCode::Unavailable,                               \
                         "the Vulkan device has no " #name);
  UTA_VK_DEVICE_SYMBOLS(UTA_VK_LOAD_DEVICE)
#undef UTA_VK_LOAD_DEVICE
  return Status();
}
