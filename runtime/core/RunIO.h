//===- RunIO.h - Arguments in, results out, for every runner ----*- C++ -*-===//
//
// What `utac run` and `uta-run` share around an execution: arguments read
// from .npy files (shape and dtype checked) or drawn from the seeded normal
// generator (docs/random-inputs.md), and results written to DIR/resultI.npy
// all or none.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_RUNIO_H
#define UTA_RUNTIME_CORE_RUNIO_H

#include "runtime/core/Executor.h"
#include "runtime/core/Manifest.h"
#include "runtime/core/Status.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace uta::runtime {

/// The type of a graph argument or result.
struct TensorSpec {
  ElementType type = ElementType::kF32;
  std::vector<int64_t> shape;

  uint64_t numElements() const;
};

/// "[4, 8]".
std::string formatShape(std::span<const int64_t> shape);

/// Argument `index` from the .npy file `path`, converted to `spec` (float32
/// files are rounded to nearest even for f16 and bf16 arguments; float16
/// files are taken as they are for f16). A wrong shape or dtype is an error
/// naming the file and the argument.
Expected<HostTensor> readArgument(const std::string &path,
                                  const TensorSpec &spec, size_t index);

/// Argument `index` drawn from stream `index` of the normal generator seeded
/// with `seed`, rounded to the argument's type.
HostTensor seededArgument(uint64_t seed, const TensorSpec &spec, size_t index);

/// "DIR/resultI.npy".
std::string resultFile(const std::string &dir, size_t index);

/// Writes results as float32 .npy files (f16 and bf16 widened exactly).
/// Every file or none: a failure removes the ones already written.
Status saveResults(const std::string &dir, std::span<const HostTensor> results);

/// Writes float64 results (the reference's) as float64 .npy files, every
/// file or none.
Status saveResults(const std::string &dir,
                   std::span<const std::vector<double>> values,
                   std::span<const std::vector<int64_t>> shapes);

/// Result `index` saved in `dir`, checked to have `shape`.
Expected<std::vector<double>> readSavedResult(const std::string &dir,
                                              size_t index,
                                              std::span<const int64_t> shape);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_RUNIO_H
