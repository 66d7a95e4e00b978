//===- CudaDriver.cpp - libcuda loaded at run time, one symbol table ------===//
//
// Opening the driver is where "not available here" is decided: no
// libcuda.so.1 (no NVIDIA driver), the toolkit's stub library (cuInit says
// CUDA_ERROR_STUB_LIBRARY), a driver without a usable device. Each of those
// becomes one Unavailable line; everything after is a plain error.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaDriver.h"

#include <cstring>
#include <dlfcn.h>

using namespace uta::runtime;
using namespace uta::runtime::cuda;

/// Expands macros in `x` before making it a string: UTA_CUDA_STR(cuMemAlloc)
/// is "cuMemAlloc_v2" with cuda.h included.
#define UTA_CUDA_STR_(x) #x
#define UTA_CUDA_STR(x) UTA_CUDA_STR_(x)

const char *uta::runtime::cuda::cudaErrorNameFromTable(int code) {
  switch (code) {
#define UTA_CUDA_ERROR(code)                                                   \
  case code:                                                                   \
    return #code;
    UTA_CUDA_ERROR(CUDA_SUCCESS)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_VALUE)
    UTA_CUDA_ERROR(CUDA_ERROR_OUT_OF_MEMORY)
    UTA_CUDA_ERROR(CUDA_ERROR_NOT_INITIALIZED)
    UTA_CUDA_ERROR(CUDA_ERROR_DEINITIALIZED)
    UTA_CUDA_ERROR(CUDA_ERROR_STUB_LIBRARY)
    UTA_CUDA_ERROR(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER)
    UTA_CUDA_ERROR(CUDA_ERROR_DEVICE_UNAVAILABLE)
    UTA_CUDA_ERROR(CUDA_ERROR_NO_DEVICE)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_DEVICE)
    UTA_CUDA_ERROR(CUDA_ERROR_DEVICE_NOT_LICENSED)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_IMAGE)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_CONTEXT)
    UTA_CUDA_ERROR(CUDA_ERROR_NO_BINARY_FOR_GPU)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_PTX)
    UTA_CUDA_ERROR(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    UTA_CUDA_ERROR(CUDA_ERROR_JIT_COMPILER_NOT_FOUND)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_SOURCE)
    UTA_CUDA_ERROR(CUDA_ERROR_FILE_NOT_FOUND)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_HANDLE)
    UTA_CUDA_ERROR(CUDA_ERROR_NOT_FOUND)
    UTA_CUDA_ERROR(CUDA_ERROR_NOT_READY)
    UTA_CUDA_ERROR(CUDA_ERROR_ILLEGAL_ADDRESS)
    UTA_CUDA_ERROR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    UTA_CUDA_ERROR(CUDA_ERROR_LAUNCH_TIMEOUT)
    UTA_CUDA_ERROR(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    UTA_CUDA_ERROR(CUDA_ERROR_MISALIGNED_ADDRESS)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_ADDRESS_SPACE)
    UTA_CUDA_ERROR(CUDA_ERROR_INVALID_PC)
    UTA_CUDA_ERROR(CUDA_ERROR_LAUNCH_FAILED)
    UTA_CUDA_ERROR(CUDA_ERROR_NOT_PERMITTED)
    UTA_CUDA_ERROR(CUDA_ERROR_NOT_SUPPORTED)
    UTA_CUDA_ERROR(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
    UTA_CUDA_ERROR(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
    UTA_CUDA_ERROR(CUDA_ERROR_UNKNOWN)
#undef UTA_CUDA_ERROR
  default:
    return nullptr;
  }
}

std::string CudaDriver::errorName(CUresult result) const {
  const char *name = nullptr;
  if (api_.cuGetErrorName &&
      api_.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  if (const char *known = cudaErrorNameFromTable(result))
    return known;
  return "CUDA error " + std::to_string(int(result));
}

std::string CudaDriver::errorDescription(CUresult result) const {
  const char *text = nullptr;
  if (api_.cuGetErrorString &&
      api_.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    return text;
  return "";
}

Status CudaDriver::check(CUresult result, const char *call,
                         ErrorCode code) const {
  if (result == CUDA_SUCCESS)
    return Status();
  std::string message = std::string(call) + ": " + errorName(result);
  std::string description = errorDescription(result);
  if (!description.empty())
    message += " (" + description + ")";
  return Status::error(code, std::move(message));
}

/// Versioned symbols that older drivers only have unversioned, with the same
/// signature (cuEventElapsedTime_v2 arrived in CUDA 12.8).
static const char *unversionedFallback(const char *symbol) {
  if (std::strcmp(symbol, "cuEventElapsedTime_v2") == 0)
    return "cuEventElapsedTime";
  return nullptr;
}

Expected<std::shared_ptr<CudaDriver>> CudaDriver::open(const char *library) {
  auto unavailable = [](std::string what) {
    return Status::error(ErrorCode::Unavailable, std::move(what));
  };
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    if (std::strcmp(library, kDefaultLibrary) == 0)
      return unavailable(std::string(library) +
                         " not found (no NVIDIA driver)");
    const char *why = dlerror();
    return unavailable(std::string("cannot open ") + library + ": " +
                       (why ? why : "unknown error"));
  }

  std::shared_ptr<CudaDriver> driver(new CudaDriver());
  driver->handle_ = handle;
  const char *missing = nullptr;
#define UTA_CUDA_RESOLVE_SYMBOL(name, required)                                \
  {                                                                            \
    void *address = dlsym(handle, UTA_CUDA_STR(name));                         \
    const char *fallback = unversionedFallback(UTA_CUDA_STR(name));            \
    if (!address && fallback)                                                  \
      address = dlsym(handle, fallback);                                       \
    driver->api_.name = reinterpret_cast<decltype(&::name)>(address);          \
    if (!address && required && !missing)                                      \
      missing = UTA_CUDA_STR(name);                                            \
  }
  UTA_CUDA_SYMBOLS(UTA_CUDA_RESOLVE_SYMBOL)
#undef UTA_CUDA_RESOLVE_SYMBOL
  if (missing) {
    dlclose(handle);
    return unavailable(std::string(library) + " has no " + missing +
                       " (the NVIDIA driver is too old)");
  }

  CUresult init = driver->api_.cuInit(0);
  if (init != CUDA_SUCCESS) {
    std::string name = driver->errorName(init);
    dlclose(handle);
    if (init == CUDA_ERROR_STUB_LIBRARY)
      return unavailable(std::string(library) +
                         " is the CUDA toolkit's stub library, not an NVIDIA "
                         "driver (cuInit: " +
                         name + ")");
    if (init == CUDA_ERROR_NO_DEVICE)
      return unavailable("no CUDA device (cuInit: " + name + ")");
    return unavailable("cuInit failed: " + name);
  }
  if (CUresult result = driver->api_.cuDriverGetVersion(&driver->version_))
    return driver->check(result, "cuDriverGetVersion", ErrorCode::Unavailable);
  return driver;
}
