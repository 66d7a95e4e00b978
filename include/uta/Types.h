//===- Types.h - Element types of the UTA C++ API ---------------*- C++ -*-===//
//
// The element types a graph's tensors may have (f32 everywhere, f16 and bf16
// for matmul and the elementwise ops). Part of the installed
// public API: plain C++20, no MLIR or LLVM header.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TYPES_H
#define UTA_TYPES_H

#include <cstddef>

namespace uta {

/// The element type of a tensor.
enum class DType { F32, F16, BF16 };

/// The MLIR spelling of `dtype`: "f32", "f16" or "bf16".
constexpr const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

/// Bytes per element of `dtype`.
constexpr std::size_t dtypeSize(DType dtype) {
  return dtype == DType::F32 ? 4 : 2;
}

} // namespace uta

#endif // UTA_TYPES_H
