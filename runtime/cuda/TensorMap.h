//===- TensorMap.h - TMA descriptors of manifest buffers --------*- C++ -*-===//
//
// A manifest argument of kind tensor_map is the TMA descriptor of a buffer:
// the CUDA backend encodes it with cuTensorMapEncodeTiled once the buffer's
// address is known, before each launch, and passes its 128 bytes by value.
// What the descriptor says besides the address follows from the manifest
// alone (describeTensorMap), so that it is checked without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CUDA_TENSORMAP_H
#define UTA_RUNTIME_CUDA_TENSORMAP_H

#include "runtime/core/Manifest.h"
#include "runtime/cuda/CudaDriver.h"

#include <array>
#include <cstdint>
#include <span>

namespace uta::runtime::cuda {

/// The arguments of cuTensorMapEncodeTiled but the address, in the driver's
/// order: dimensions innermost first, strides in bytes of dimensions 1 and
/// up, zeros past the tensor's end, no swizzle or interleave.
struct TensorMapEncoding {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  uint32_t rank = 0;
  std::array<uint64_t, 5> globalDim{};
  std::array<uint64_t, 4> globalStrides{};
  std::array<uint32_t, 5> boxDim{};
  std::array<uint32_t, 5> elementStrides{};
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
};

/// The encoding of a descriptor of `buffer` whose copies move `box`
/// (outermost first, as in the manifest). The manifest reader has checked
/// the ranks and the 16-byte rules.
TensorMapEncoding describeTensorMap(const BufferDesc &buffer,
                                    std::span<const int64_t> box);

TensorMapEncoding describeTensorMap(const BufferDesc &buffer,
                                    const KernelArg &arg);

/// Encodes the descriptor of `encoding` at device address `address`.
Status encodeTensorMap(CudaDriver &driver, const TensorMapEncoding &encoding,
                       CUdeviceptr address, CUtensorMap &out);

} // namespace uta::runtime::cuda

#endif // UTA_RUNTIME_CUDA_TENSORMAP_H
