//===- TensorMap.cpp - TMA descriptors of manifest buffers ----------------===//

#include "runtime/cuda/TensorMap.h"

using namespace uta::runtime;
using namespace uta::runtime::cuda;

static CUtensorMapDataType getDataType(ElementType type) {
  switch (type) {
  case ElementType::kF16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ElementType::kBF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ElementType::kF32:
    break;
  }
  return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

TensorMapEncoding
uta::runtime::cuda::describeTensorMap(const BufferDesc &buffer,
                                      std::span<const int64_t> box) {
  TensorMapEncoding encoding;
  encoding.dataType = getDataType(buffer.type);
  encoding.rank = uint32_t(buffer.shape.size());
  uint64_t stride = elementTypeSize(buffer.type);
  for (uint32_t d = 0; d < encoding.rank; ++d) {
    // Dimension d of the driver is the manifest's rank - 1 - d.
    size_t axis = encoding.rank - 1 - d;
    encoding.globalDim[d] = uint64_t(buffer.shape[axis]);
    encoding.boxDim[d] = uint32_t(box[axis]);
    encoding.elementStrides[d] = 1;
    if (d > 0)
      encoding.globalStrides[d - 1] = stride;
    stride *= uint64_t(buffer.shape[axis]);
  }
  return encoding;
}

TensorMapEncoding
uta::runtime::cuda::describeTensorMap(const BufferDesc &buffer,
                                      const KernelArg &arg) {
  TensorMapEncoding encoding = describeTensorMap(buffer, arg.box);
  encoding.swizzle = arg.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                     : arg.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                     : arg.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                         : CU_TENSOR_MAP_SWIZZLE_NONE;
  return encoding;
}

Status uta::runtime::cuda::encodeTensorMap(CudaDriver &driver,
                                           const TensorMapEncoding &encoding,
                                           CUdeviceptr address,
                                           CUtensorMap &out) {
  auto encode = driver.api().cuTensorMapEncodeTiled;
  if (!encode)
    return Status::error(ErrorCode::Unavailable,
                         "cuda: this driver cannot encode tensor maps "
                         "(cuTensorMapEncodeTiled is missing)");
  return driver.check(
      encode(&out, encoding.dataType, encoding.rank,
             reinterpret_cast<void *>(uintptr_t(address)),
             encoding.globalDim.data(), encoding.globalStrides.data(),
             encoding.boxDim.data(), encoding.elementStrides.data(),
             CU_TENSOR_MAP_INTERLEAVE_NONE, encoding.swizzle,
             CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
}
