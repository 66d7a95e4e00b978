//===- Npy.h - Reading and writing NumPy .npy files -------------*- C++ -*-===//
//
// `utac run --inputs=a.npy,...` takes arguments from .npy files and `--save`
// writes results as .npy files. This is the small subset of the format those
// need: little-endian float16/float32/float64 ('<f2', '<f4', '<f8'), C order,
// any shape (0-d included). Reading accepts format versions 1.0, 2.0 and 3.0;
// writing produces the same bytes as np.save of NumPy >= 1.24 (version 1.0,
// 2.0 only when the header would not fit). Everything else is rejected with
// a one-line message naming the file and the problem.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_NPY_H
#define UTA_RUNTIME_CORE_NPY_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace uta::runtime {

/// The element types a .npy file may hold here.
enum class NpyDType { kFloat16, kFloat32, kFloat64 };

/// Bytes per element: 2, 4 or 8.
size_t getNpyElementSize(NpyDType dtype);
/// The NumPy descriptor: "<f2", "<f4" or "<f8".
std::string_view getNpyDescr(NpyDType dtype);

/// An array as stored in a .npy file: elements in C order, little-endian.
struct NpyArray {
  NpyDType dtype = NpyDType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;

  /// The product of the shape (1 for a 0-d array; -1 if the shape is
  /// invalid: a negative size or a product beyond int64).
  int64_t getNumElements() const;
};

/// Builds arrays from values (the data is copied).
NpyArray makeNpyArray(std::span<const float> values,
                      std::vector<int64_t> shape);
NpyArray makeNpyArray(std::span<const double> values,
                      std::vector<int64_t> shape);
/// float16 elements given as their bit patterns.
NpyArray makeNpyArrayFromHalfBits(std::span<const uint16_t> bits,
                                  std::vector<int64_t> shape);

/// The elements as float64 (exact for every dtype).
std::vector<double> getNpyValuesAsDouble(const NpyArray &array);
/// The elements as float32: exact for '<f2' and '<f4', rounded to nearest
/// for '<f8'.
std::vector<float> getNpyValuesAsFloat(const NpyArray &array);

/// The longest header read (1 MiB; NumPy's own reader stops at 10000 bytes
/// unless told otherwise).
inline constexpr uint64_t kMaxNpyHeaderBytes = uint64_t(1) << 20;

/// Parses the bytes of a whole .npy file; `name` prefixes error messages.
Expected<NpyArray> parseNpy(std::span<const std::byte> bytes,
                            std::string_view name);
/// Reads a .npy file. Errors are InvalidInput, "PATH: what is wrong". Only
/// a regular file is read (a FIFO, a device or a folder, also behind a
/// link, is refused without blocking), and only for exactly the bytes its
/// header declares: the header length is bounded (kMaxNpyHeaderBytes), the
/// shape's byte size is overflow-checked and compared with the file's size
/// before the data is allocated, and a short file or trailing bytes are
/// errors.
Expected<NpyArray> readNpy(const std::string &path);

/// The header np.save writes for this dtype and shape (magic, version,
/// length and the padded dictionary), such that the data starts at a
/// multiple of 64 bytes. `majorVersion` is 1 or 2, or 0 to pick 1 unless
/// the header is too long for it.
std::string encodeNpyHeader(NpyDType dtype, std::span<const int64_t> shape,
                            unsigned majorVersion = 0);
/// The bytes of a whole .npy file; fails if the data size does not match.
Expected<std::vector<std::byte>> encodeNpy(const NpyArray &array);

/// Writes a .npy file atomically: the bytes go to a temporary file in the
/// same directory, which is renamed over `path` only once complete, so a
/// failure never leaves a partial file behind.
Status writeNpy(const std::string &path, NpyDType dtype,
                std::span<const int64_t> shape,
                std::span<const std::byte> data);
Status writeNpy(const std::string &path, const NpyArray &array);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_NPY_H
