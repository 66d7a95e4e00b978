//===- Indexing.h - Strided index walks of the reference --------*- C++ -*-===//
//
// Internal to lib/Reference: C-order strides, NumPy broadcast strides and an
// odometer that walks an output shape while tracking the matching offsets in
// several (possibly broadcast) inputs, so that no kernel builds index maps.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_REFERENCE_INDEXING_H
#define UTA_LIB_REFERENCE_INDEXING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::uta::reference::detail {

/// C-order strides of `shape` (in elements).
inline std::vector<int64_t> contiguousStrides(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Strides, indexed by the dimensions of `outShape`, that read a C-order
/// tensor of shape `inShape` broadcast NumPy-style to `outShape`: dimensions
/// are aligned at the end, and missing or size-1 dimensions get stride 0.
/// Each stride is multiplied by `scale` (the size of an inner block).
/// The caller has checked that the shapes are broadcast-compatible.
inline std::vector<int64_t> broadcastStrides(llvm::ArrayRef<int64_t> inShape,
                                             llvm::ArrayRef<int64_t> outShape,
                                             int64_t scale = 1) {
  std::vector<int64_t> inStrides = contiguousStrides(inShape);
  std::vector<int64_t> strides(outShape.size(), 0);
  size_t lead = outShape.size() - inShape.size();
  for (size_t i = 0; i < inShape.size(); ++i)
    if (inShape[i] != 1)
      strides[lead + i] = inStrides[i] * scale;
  return strides;
}

/// Calls `fn(offsets)` for every index of `shape` in C order, where
/// offsets[k] = sum over i of index[i] * strides[k][i]. Nothing is called when
/// some dimension has size 0.
template <typename Fn>
void forEachIndex(llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<std::vector<int64_t>> strides, Fn fn) {
  for (int64_t size : shape)
    if (size <= 0)
      return;
  size_t rank = shape.size();
  llvm::SmallVector<int64_t> index(rank, 0);
  llvm::SmallVector<int64_t> offsets(strides.size(), 0);
  while (true) {
    fn(llvm::ArrayRef<int64_t>(offsets));
    // Advance the odometer from the innermost dimension.
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++index[d] < shape[d]) {
        for (size_t k = 0; k < strides.size(); ++k)
          offsets[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] -= strides[k][d] * (shape[d] - 1);
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (rank == 0)
      return;
  }
}

/// "[2, 3, 4]".
inline std::string shapeToString(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

} // namespace mlir::uta::reference::detail

#endif // UTA_LIB_REFERENCE_INDEXING_H
