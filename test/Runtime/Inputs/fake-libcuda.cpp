//===- fake-libcuda.cpp - A stand-in libcuda.so.1 for tests ---------------===//
//
// Built as fake-driver/libcuda.so.1 and put first on LD_LIBRARY_PATH, this
// lets the CUDA backend's host side (symbol loading, contexts, streams, the
// memory pool, parameter marshalling, events, JIT error logs) and uta-run's
// GPU paths run on machines without a GPU. "Device memory" is host memory;
// modules are kept as text; cuLaunchKernel interprets the two kernels of the
// tests by entry point name, reading its parameters exactly as the driver
// would (pointers to each parameter's bytes):
//   add_f32   (16 params, descriptor ABI): c = a + b for i < n (i64)
//   scale_f32 (x, y, f32 alpha, i32 n):     y = alpha * x for i < n
//   copy_box_f32 (tensor map, y):  y = the map's box at (0, 2, 1), zeros
//                                  past the tensor, as the PTX one does
// cuTensorMapEncodeTiled checks what the driver checks and writes its
// arguments into the descriptor's bytes, for copy_box_f32 to read.
// cuLaunchKernelEx takes only a cluster shape that divides the grid, says
// "fake-libcuda: cluster X x Y x Z" on stderr, and runs the kernel as
// cuLaunchKernel does, or cluster_rank_f32 (x, y, i32 n: y = x * the
// blocks of a cluster + the block's rank in it).
// cuOccupancyMaxActiveClusters checks the configuration as the launch does
// and says 0 where a cluster's blocks ask for more than 228 KiB of dynamic
// shared memory between them (one GPC's pair of SMs, say), else 1.
// and only over the threads the launch has, so a short grid shows.
// Fresh allocations are filled with 0x5a bytes, so only the executor's own
// NaN poisoning can make unwritten results NaN. With
// FAKE_LIBCUDA_TRACE_COPIES set, each copy between host and device says
// "fake-libcuda: upload N bytes" or "download N bytes" on stderr.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct FakeModule {
  std::string text;
};

enum FakeKernel : intptr_t {
  kAdd = 1,
  kScale = 2,
  kCopyBox = 3,
  kClusterRank = 4
};

/// What the fake cuTensorMapEncodeTiled keeps in a CUtensorMap.
struct FakeTensorMap {
  const float *address;
  uint32_t rank;
  uint64_t dims[5];
  uint64_t strides[4];
  uint32_t box[5];
};
static_assert(sizeof(FakeTensorMap) <= sizeof(CUtensorMap));

/// Each kernel's static shared memory (cuFuncGetAttribute says 1 KiB).
constexpr int kStaticSharedBytes = 1024;
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES of kAdd and kScale: as
/// the driver, 48 KiB less the static shared memory until it is set (and
/// again for each function looked up), and a launch asking for more fails.
int maxDynamicShared[5] = {};

void writeLog(unsigned count, CUjit_option *options, void **values,
              CUjit_option which, const char *text) {
  for (unsigned i = 0; i < count; ++i)
    if (options[i] == which)
      std::strcpy(static_cast<char *>(values[i]), text);
}

/// Says a copy of `bytes` on stderr where FAKE_LIBCUDA_TRACE_COPIES is set.
void traceCopy(const char *direction, size_t bytes) {
  static const bool trace = std::getenv("FAKE_LIBCUDA_TRACE_COPIES");
  if (trace)
    std::fprintf(stderr, "fake-libcuda: %s %zu bytes\n", direction, bytes);
}

} // namespace

extern "C" {

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return CUDA_SUCCESS;
}
// Like the real stub library, no error names: the runtime's table is used.
CUresult cuGetErrorName(CUresult, const char **) {
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult, const char **) {
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::snprintf(name, size_t(length), "Fake CUDA device");
  return CUDA_SUCCESS;
}
// An H100's limits, so launches are checked against real numbers.
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *value = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = kStaticSharedBytes;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *value = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  default:
    *value = 0;
    break;
  }
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(intptr_t(0x100));
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext context) {
  return context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
CUresult cuStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(intptr_t(0x200));
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult cuEventCreate(CUevent *event, unsigned) {
  static intptr_t next = 0x1000;
  *event = reinterpret_cast<CUevent>(next++);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent event) {
  return event ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuEventRecord(CUevent event, CUstream) {
  return event ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuEventElapsedTime_v2(float *milliseconds, CUevent, CUevent) {
  *milliseconds = 0.125f;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr *address, size_t bytes) {
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(memory, 0x5a, bytes);
  *address = CUdeviceptr(memory);
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr address) {
  std::free(reinterpret_cast<void *>(address));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                              CUstream) {
  traceCopy("upload", bytes);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes,
                              CUstream) {
  traceCopy("download", bytes);
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream) {
  std::fill_n(reinterpret_cast<uint32_t *>(dst), count, value);
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned count,
                            CUjit_option *options, void **values) {
  std::string text = static_cast<const char *>(image);
  writeLog(count, options, values, CU_JIT_INFO_LOG_BUFFER,
           "info    : fake JIT");
  // What ptxas says of PTX that calls libdevice without linking it.
  if (text.find(".extern .func") != std::string::npos) {
    writeLog(count, options, values, CU_JIT_ERROR_LOG_BUFFER,
             "ptxas fatal   : Unresolved extern function '__nv_tanhf'\n");
    return CUDA_ERROR_INVALID_PTX;
  }
  *module = reinterpret_cast<CUmodule>(new FakeModule{text});
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<FakeModule *>(module);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  const std::string &text = reinterpret_cast<FakeModule *>(module)->text;
  if (text.find(".entry " + std::string(name) + "(") == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  intptr_t kernel = std::strcmp(name, "add_f32") == 0            ? kAdd
                    : std::strcmp(name, "copy_box_f32") == 0     ? kCopyBox
                    : std::strcmp(name, "cluster_rank_f32") == 0 ? kClusterRank
                                                                 : kScale;
  maxDynamicShared[kernel] = 48 * 1024 - kStaticSharedBytes;
  *function = reinterpret_cast<CUfunction>(kernel);
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                            CUfunction function) {
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    // As if scale_f32's registers limited it below the device's 1024.
    *value = reinterpret_cast<intptr_t>(function) == kScale ? 768 : 1024;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    // Static shared memory, so that it is seen to count against the limit.
    *value = kStaticSharedBytes;
    break;
  default:
    *value = 0;
    break;
  }
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute,
                            int value) {
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    maxDynamicShared[reinterpret_cast<intptr_t>(function)] = value;
  return CUDA_SUCCESS;
}
CUresult cuFuncGetParamInfo(CUfunction function, size_t index, size_t *offset,
                            size_t *size) {
  static const size_t kScaleSizes[] = {8, 8, 4, 4};
  static const size_t kCopyBoxSizes[] = {sizeof(CUtensorMap), 8};
  intptr_t kernel = reinterpret_cast<intptr_t>(function);
  size_t count = kernel == kAdd           ? 16u
                 : kernel == kCopyBox     ? 2u
                 : kernel == kClusterRank ? 3u
                                          : 4u;
  if (index >= count)
    return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  *size = kernel == kAdd       ? 8
          : kernel == kCopyBox ? kCopyBoxSizes[index]
                               : kScaleSizes[index];
  return CUDA_SUCCESS;
}
CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill fill) {
  // The driver's rules that the runtime must meet (cuda.h).
  if (type != CU_TENSOR_MAP_DATA_TYPE_FLOAT32 || rank < 1 || rank > 5 ||
      reinterpret_cast<uintptr_t>(address) % 16 != 0 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
      (swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
       box[0] * 4 > (swizzle == CU_TENSOR_MAP_SWIZZLE_32B   ? 32u
                     : swizzle == CU_TENSOR_MAP_SWIZZLE_64B ? 64u
                                                            : 128u)) ||
      fill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE || box[0] * 4 % 16 != 0)
    return CUDA_ERROR_INVALID_VALUE;
  FakeTensorMap fake{static_cast<const float *>(address), rank, {}, {}, {}};
  for (cuuint32_t d = 0; d < rank; ++d) {
    if (dims[d] == 0 || box[d] == 0 || box[d] > 256 || elementStrides[d] != 1)
      return CUDA_ERROR_INVALID_VALUE;
    if (d > 0 && strides[d - 1] % 16 != 0)
      return CUDA_ERROR_INVALID_VALUE;
    fake.dims[d] = dims[d];
    fake.box[d] = box[d];
    if (d > 0)
      fake.strides[d - 1] = strides[d - 1];
  }
  std::memset(map, 0, sizeof(*map));
  std::memcpy(map, &fake, sizeof(fake));
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, CUstream,
                        void **params, void **) {
  if (int64_t(sharedBytes) >
      maxDynamicShared[reinterpret_cast<intptr_t>(function)])
    return CUDA_ERROR_INVALID_VALUE;
  int64_t threads =
      int64_t(gridX) * gridY * gridZ * int64_t(blockX) * blockY * blockZ;
  auto pointer = [&](int i) { return *static_cast<float **>(params[i]); };
  if (reinterpret_cast<intptr_t>(function) == kAdd) {
    float *a = pointer(1), *b = pointer(6), *c = pointer(11);
    int64_t n = *static_cast<int64_t *>(params[15]);
    for (int64_t i = 0; i < n && i < threads; ++i)
      c[i] = a[i] + b[i];
    return CUDA_SUCCESS;
  }
  if (reinterpret_cast<intptr_t>(function) == kCopyBox) {
    // The descriptor came by value: its bytes are the parameter.
    FakeTensorMap map;
    std::memcpy(&map, params[0], sizeof(map));
    if (map.rank != 3)
      return CUDA_ERROR_INVALID_VALUE;
    float *y = pointer(1);
    const uint64_t origin[3] = {0, 2, 1};
    const char *base = reinterpret_cast<const char *>(map.address);
    for (uint64_t z = 0; z < map.box[2]; ++z)
      for (uint64_t r = 0; r < map.box[1]; ++r)
        for (uint64_t c = 0; c < map.box[0]; ++c) {
          uint64_t at[3] = {origin[0] + c, origin[1] + r, origin[2] + z};
          bool inside =
              at[0] < map.dims[0] && at[1] < map.dims[1] && at[2] < map.dims[2];
          float value = 0.0f;
          if (inside)
            std::memcpy(&value,
                        base + at[0] * 4 + at[1] * map.strides[0] +
                            at[2] * map.strides[1],
                        4);
          *y++ = value;
        }
    return CUDA_SUCCESS;
  }
  float *x = pointer(0), *y = pointer(1);
  float alpha = *static_cast<float *>(params[2]);
  int32_t n = *static_cast<int32_t *>(params[3]);
  for (int64_t i = 0; i < n && i < threads; ++i)
    y[i] = alpha * x[i];
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction function,
                          void **params, void **extra) {
  if (config->numAttrs != 1 ||
      config->attrs[0].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
    return CUDA_ERROR_INVALID_VALUE;
  const auto &cluster = config->attrs[0].value.clusterDim;
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 ||
      config->gridDimX % cluster.x || config->gridDimY % cluster.y ||
      config->gridDimZ % cluster.z)
    return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  std::fprintf(stderr, "fake-libcuda: cluster %u x %u x %u\n", cluster.x,
               cluster.y, cluster.z);
  if (reinterpret_cast<intptr_t>(function) == kClusterRank) {
    // y[i] = x[i] * (blocks per cluster) + (the block's rank in it), on a
    // one-dimensional grid as the test's kernel is launched.
    const float *x = *static_cast<float **>(params[0]);
    float *y = *static_cast<float **>(params[1]);
    int32_t n = *static_cast<int32_t *>(params[2]);
    unsigned blocks = cluster.x * cluster.y * cluster.z;
    for (int64_t i = 0;
         i < n && i < int64_t(config->gridDimX) * config->blockDimX; ++i)
      y[i] = x[i] * float(blocks) + float((i / config->blockDimX) % cluster.x);
    return CUDA_SUCCESS;
  }
  return cuLaunchKernel(function, config->gridDimX, config->gridDimY,
                        config->gridDimZ, config->blockDimX, config->blockDimY,
                        config->blockDimZ, config->sharedMemBytes,
                        config->hStream, params, extra);
}

CUresult cuOccupancyMaxActiveClusters(int *clusters, CUfunction,
                                      const CUlaunchConfig *config) {
  if (config->numAttrs != 1 ||
      config->attrs[0].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
    return CUDA_ERROR_INVALID_VALUE;
  const auto &cluster = config->attrs[0].value.clusterDim;
  uint64_t blocks = uint64_t(cluster.x) * cluster.y * cluster.z;
  *clusters = blocks * config->sharedMemBytes > 228 * 1024 ? 0 : 1;
  return CUDA_SUCCESS;
}

} // extern "C"
