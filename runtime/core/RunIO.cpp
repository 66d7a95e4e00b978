//===- RunIO.cpp - Arguments in, results out, for every runner ------------===//

#include "runtime/core/RunIO.h"

#include "runtime/core/Npy.h"
#include "runtime/core/Random.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace uta::runtime;

uint64_t TensorSpec::numElements() const {
  uint64_t count = 1;
  for (int64_t size : shape)
    count *= static_cast<uint64_t>(size);
  return count;
}

std::string uta::runtime::formatShape(std::span<const int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

Expected<HostTensor> uta::runtime::readArgument(const std::string &path,
                                                const TensorSpec &spec,
                                                size_t index) {
  Expected<NpyArray> array = readNpy(path);
  if (!array)
    return array.status();
  std::string what = path + ": argument " + std::to_string(index);
  if (array->shape != spec.shape)
    return Status::error(ErrorCode::InvalidInput,
                         what + " has shape " + formatShape(spec.shape) +
                             ", the file " + formatShape(array->shape));
  bool isHalfFile = array->dtype == NpyDType::kFloat16;
  if (array->dtype != NpyDType::kFloat32 &&
      !(isHalfFile && spec.type == ElementType::kF16))
    return Status::error(
        ErrorCode::InvalidInput,
        what + " is " + elementTypeName(spec.type) + ", the file holds " +
            std::string(getNpyDescr(array->dtype)) + " (expected <f4" +
            (spec.type == ElementType::kF16 ? " or <f2" : "") +
            "; convert with .astype(np.float32))");
  if (isHalfFile) {
    HostTensor tensor;
    tensor.type = spec.type;
    tensor.shape = spec.shape;
    tensor.data = std::move(array->data);
    return tensor;
  }
  return HostTensor::fromFloat32(spec.type, spec.shape,
                                 getNpyValuesAsFloat(*array));
}

/// Copies the bytes of `values` into `out`, which has room for them; not
/// memcpy, whose pointers must not be null even for a zero-element tensor.
template <typename T>
static void copyBytes(const std::vector<T> &values,
                      std::vector<std::byte> &out) {
  const auto *bytes = reinterpret_cast<const std::byte *>(values.data());
  std::copy_n(bytes, values.size() * sizeof(T), out.begin());
}

HostTensor uta::runtime::seededArgument(uint64_t seed, const TensorSpec &spec,
                                        size_t index) {
  NormalGenerator generator(seed, index);
  HostTensor tensor;
  tensor.type = spec.type;
  tensor.shape = spec.shape;
  size_t count = spec.numElements();
  tensor.data.resize(count * elementTypeSize(spec.type));
  if (spec.type == ElementType::kF32) {
    std::vector<float> values(count);
    generator.fill(values);
    copyBytes(values, tensor.data);
    return tensor;
  }
  std::vector<uint16_t> bits(count);
  if (spec.type == ElementType::kF16)
    generator.fillHalf(bits);
  else
    generator.fillBfloat16(bits);
  copyBytes(bits, tensor.data);
  return tensor;
}

std::string uta::runtime::resultFile(const std::string &dir, size_t index) {
  std::string name = "result" + std::to_string(index) + ".npy";
  if (!dir.empty() && dir.back() == '/')
    return dir + name;
  return dir + "/" + name;
}

/// Creates `dir` and its parents.
static Status makeDirectories(const std::string &dir) {
  for (size_t slash = 1; slash <= dir.size(); ++slash) {
    if (slash != dir.size() && dir[slash] != '/')
      continue;
    std::string prefix = dir.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return Status::error(ErrorCode::InvalidInput, "--save: cannot create " +
                                                        prefix + ": " +
                                                        std::strerror(errno));
  }
  struct stat info;
  if (::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    return Status::error(ErrorCode::InvalidInput,
                         "--save: " + dir + " is not a directory");
  return Status();
}

/// Writes `arrays` to DIR/resultI.npy, all or none.
static Status saveArrays(const std::string &dir,
                         std::span<const NpyArray> arrays) {
  if (Status status = makeDirectories(dir); !status)
    return status;
  std::vector<std::string> written;
  for (size_t i = 0; i < arrays.size(); ++i) {
    std::string path = resultFile(dir, i);
    if (Status status = writeNpy(path, arrays[i]); !status) {
      for (const std::string &done : written)
        std::remove(done.c_str());
      return status;
    }
    written.push_back(path);
  }
  return Status();
}

Status uta::runtime::saveResults(const std::string &dir,
                                 std::span<const HostTensor> results) {
  std::vector<NpyArray> arrays;
  for (const HostTensor &result : results)
    arrays.push_back(makeNpyArray(result.toFloat32(), result.shape));
  return saveArrays(dir, arrays);
}

Status uta::runtime::saveResults(const std::string &dir,
                                 std::span<const std::vector<double>> values,
                                 std::span<const std::vector<int64_t>> shapes) {
  std::vector<NpyArray> arrays;
  for (size_t i = 0; i < values.size(); ++i)
    arrays.push_back(makeNpyArray(values[i], shapes[i]));
  return saveArrays(dir, arrays);
}

Expected<std::vector<double>>
uta::runtime::readSavedResult(const std::string &dir, size_t index,
                              std::span<const int64_t> shape) {
  std::string path = resultFile(dir, index);
  Expected<NpyArray> array = readNpy(path);
  if (!array)
    return array.status();
  if (!std::equal(array->shape.begin(), array->shape.end(), shape.begin(),
                  shape.end()))
    return Status::error(ErrorCode::InvalidInput,
                         path + ": result " + std::to_string(index) +
                             " has shape " + formatShape(shape) +
                             ", the file " + formatShape(array->shape));
  return getNpyValuesAsDouble(*array);
}
