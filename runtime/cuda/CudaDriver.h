//===- CudaDriver.h - libcuda loaded at run time ----------------*- C++ -*-===//
//
// The CUDA driver is never linked: binaries that link it do not even start on
// machines without an NVIDIA driver. It is opened
// with dlopen and every entry point the runtime calls is listed once, in
// UTA_CUDA_SYMBOLS below. cuda.h is used for its types only.
//
// cuda.h maps many names to versioned symbols with macros (cuMemAlloc is
// cuMemAlloc_v2, cuEventElapsedTime is cuEventElapsedTime_v2 in CUDA 13).
// The table is expanded after those macros, so each member has the versioned
// name and the versioned type, and dlsym looks up the versioned symbol: the
// same function a program linked against libcuda would call.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CUDA_CUDADRIVER_H
#define UTA_RUNTIME_CUDA_CUDADRIVER_H

#include "runtime/core/Status.h"

#include <cuda.h>

#include <memory>
#include <string>

namespace uta::runtime::cuda {

/// X(name, required): every driver entry point the runtime uses. Optional
/// entries may be missing (the stub library's error-name functions fail, old
/// drivers lack some); code checks them for null.
#define UTA_CUDA_SYMBOLS(X)                                                    \
  X(cuInit, true)                                                              \
  X(cuDriverGetVersion, true)                                                  \
  X(cuGetErrorName, false)                                                     \
  X(cuGetErrorString, false)                                                   \
  X(cuDeviceGetCount, true)                                                    \
  X(cuDeviceGet, true)                                                         \
  X(cuDeviceGetName, true)                                                     \
  X(cuDeviceGetAttribute, true)                                                \
  X(cuDevicePrimaryCtxRetain, true)                                            \
  X(cuDevicePrimaryCtxRelease, true)                                           \
  X(cuCtxSetCurrent, true)                                                     \
  X(cuStreamCreate, true)                                                      \
  X(cuStreamDestroy, true)                                                     \
  X(cuStreamSynchronize, true)                                                 \
  X(cuEventCreate, true)                                                       \
  X(cuEventDestroy, true)                                                      \
  X(cuEventRecord, true)                                                       \
  X(cuEventElapsedTime, true)                                                  \
  X(cuMemAlloc, true)                                                          \
  X(cuMemFree, true)                                                           \
  X(cuMemcpyHtoDAsync, true)                                                   \
  X(cuMemcpyDtoHAsync, true)                                                   \
  X(cuMemsetD32Async, true)                                                    \
  X(cuModuleLoadDataEx, true)                                                  \
  X(cuModuleUnload, true)                                                      \
  X(cuModuleGetFunction, true)                                                 \
  X(cuFuncGetAttribute, true)                                                  \
  X(cuFuncSetAttribute, true)                                                  \
  X(cuFuncGetParamInfo, false)                                                 \
  X(cuTensorMapEncodeTiled, false)                                             \
  X(cuLaunchKernel, true)                                                      \
  X(cuLaunchKernelEx, false)                                                   \
  X(cuOccupancyMaxActiveClusters, false)

/// The resolved entry points; members carry the versioned names.
struct CudaSymbols {
#define UTA_CUDA_DECLARE_SYMBOL(name, required)                                \
  decltype(&::name) name = nullptr;
  UTA_CUDA_SYMBOLS(UTA_CUDA_DECLARE_SYMBOL)
#undef UTA_CUDA_DECLARE_SYMBOL
};

/// "CUDA_ERROR_OUT_OF_MEMORY" for the common codes, without the driver;
/// null for others. An int, not a CUresult: a newer driver may return a
/// code that this cuda.h's enum cannot hold.
const char *cudaErrorNameFromTable(int code);

/// An opened and initialized driver.
class CudaDriver {
public:
  /// The library opened by default.
  static constexpr const char *kDefaultLibrary = "libcuda.so.1";

  /// Opens `library` (libcuda.so.1 by default), resolves every symbol of the
  /// table and calls cuInit. Fails with Unavailable and one line when there
  /// is no driver, only the toolkit's stub library, or no device.
  static Expected<std::shared_ptr<CudaDriver>>
  open(const char *library = kDefaultLibrary);

  const CudaSymbols &api() const { return api_; }
  /// cuDriverGetVersion, e.g. 13000.
  int version() const { return version_; }

  /// "CUDA_ERROR_INVALID_PTX", from the driver when it can say, else from
  /// the local table, else "CUDA error 123".
  std::string errorName(CUresult result) const;
  /// The driver's description of `result`, or empty.
  std::string errorDescription(CUresult result) const;
  /// Ok for CUDA_SUCCESS; otherwise an error that names `call` and the
  /// error: "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  Status check(CUresult result, const char *call,
               ErrorCode code = ErrorCode::Internal) const;

  // The library is never closed: unloading a driver that was initialized is
  // not safe, and dlopen reference-counts repeated opens.
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

private:
  CudaDriver() = default;
  void *handle_ = nullptr;
  CudaSymbols api_;
  int version_ = 0;
};

} // namespace uta::runtime::cuda

/// Calls a driver entry point through `driver` (a CudaDriver) and turns the
/// CUresult into a Status naming the call: UTA_CU(driver, cuMemFree, ptr).
#define UTA_CU(driver, fn, ...)                                                \
  (driver).check((driver).api().fn(__VA_ARGS__), #fn)

#endif // UTA_RUNTIME_CUDA_CUDADRIVER_H
