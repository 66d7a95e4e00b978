//===- Compare.h - Checking backend results against the oracle --*- C++ -*-===//
//
// `--check` and every execution test compare each result of a backend with
// the float64 reference interpreter (docs/runtime.md, "Checking results").
// For a result `out` and its reference `ref`, both of n elements:
//
//   rel_l2  = ||out - ref||_2 / ||ref||_2    (the absolute ||out - ref||_2
//                                             when ||ref||_2 = 0)
//   max_rel = max_i |out_i - ref_i| / max(|ref_i|, rms(ref)),
//             rms(ref) = ||ref||_2 / sqrt(n)  (absolute when rms(ref) = 0)
//
// The elementwise error is relative to the element, but the denominator is
// floored by the RMS of the reference: an element whose exact value is near
// zero (a cancellation, a zero crossing) would otherwise turn ordinary
// rounding noise into a huge relative error. Above the RMS it is a true
// relative error, so one bad element among 2^20 still fails even when the
// norm-wise error, averaged over all of them, does not notice it.
//
// A result passes when it has no non-finite element (outputs are poisoned
// with NaN before the run, so an unwritten element fails too), and both
// errors are within the tolerance. A non-finite reference element is not the
// backend's fault: the comparison reports the test itself as invalid.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_COMPARE_H
#define UTA_RUNTIME_CORE_COMPARE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace uta::runtime {

/// The arithmetic a result was computed with, which sets its tolerance.
enum class CheckPrecision {
  kF32,  // IEEE float32
  kTF32, // float32 storage, tf32 matmuls (--allow-tf32)
  kF16,
  kBF16,
  kF32FastMath, // float32, approximate transcendentals (--fast-math)
};

/// The tolerance for both errors: f32 1e-5 for elementwise graphs and 1e-4
/// when the graph has reductions (matmuls included); tf32 2e-3 (TF32's own
/// rounding reaches 1.2e-3 at the worst element of a matmul); f16 and bf16
/// 1e-2; f32 with --fast-math 2e-3 (tanh.approx.f32 is within 2^-10.99
/// relative, ex2.approx and lg2.approx within a few ulp).
double getDefaultTolerance(CheckPrecision precision, bool hasReductions);

/// What a comparison found.
struct Comparison {
  enum class Verdict {
    kPass,
    /// The backend's result is wrong: an error above the tolerance, or a
    /// non-finite output element.
    kFail,
    /// The reference has non-finite elements: the test itself is invalid.
    kInvalidReference,
  };

  std::string name;
  std::vector<int64_t> shape;
  double tolerance = 0;
  /// Whether the errors are absolute (the reference is all zeros).
  bool absolute = false;
  /// Over the elements where both sides are finite.
  double relL2 = 0;
  double maxRel = 0;
  /// The flat index of the largest elementwise error (-1 if none).
  int64_t maxIndex = -1;
  int64_t nonFiniteOutputs = 0;
  /// Non-finite elements that still look like the poison of poisonWithNaN
  /// (a NaN with the sign and the leading seven payload bits set, which
  /// survives widening from float16/bfloat16/float32), so most likely never
  /// written. NaNs from arithmetic do not look like this.
  int64_t poisonedOutputs = 0;
  int64_t firstNonFiniteOutput = -1;
  double firstNonFiniteValue = 0;
  int64_t nonFiniteReference = 0;
  int64_t firstNonFiniteReference = -1;
  double firstNonFiniteReferenceValue = 0;
  Verdict verdict = Verdict::kPass;

  bool passed() const { return verdict == Verdict::kPass; }
  /// One line, e.g.
  /// "result0: rel_l2 3.1e-08 max_rel 2.4e-07 at [3, 17] (tol 1e-05) ok".
  std::string getReport() const;
};

/// Compares `out` with `ref`; `shape` gives the multi-indices of the report.
/// Fails (Internal) only when the sizes of out, ref and shape disagree.
Expected<Comparison> compareResult(std::string_view name,
                                   std::span<const float> out,
                                   std::span<const double> ref,
                                   std::span<const int64_t> shape,
                                   double tolerance);
Expected<Comparison> compareResult(std::string_view name,
                                   std::span<const double> out,
                                   std::span<const double> ref,
                                   std::span<const int64_t> shape,
                                   double tolerance);

/// The multi-index of flat (C order) index `flat` of `shape`, "[3, 17]"
/// ("[]" for a 0-d shape).
std::string formatIndex(std::span<const int64_t> shape, int64_t flat);

/// Fills output buffers with a NaN pattern before a run, so that an element
/// the kernels never write fails the check: every byte 0xff, which is a NaN
/// in float64, float32, float16 and bfloat16 alike (and distinct from the
/// NaNs that arithmetic produces).
void poisonWithNaN(std::span<std::byte> bytes);
void poisonWithNaN(std::span<float> values);
void poisonWithNaN(std::span<double> values);
/// float16 or bfloat16 bit patterns.
void poisonWithNaN(std::span<uint16_t> bits);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_COMPARE_H
