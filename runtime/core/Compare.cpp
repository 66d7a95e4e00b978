//===- Compare.cpp - Checking backend results against the oracle ----------===//
//
// Three passes over the data: non-finite elements and the largest
// magnitudes, then the two norms (scaled by those magnitudes so that no
// square overflows), then the elementwise error, which needs the RMS.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace uta::runtime;

double uta::runtime::getDefaultTolerance(CheckPrecision precision,
                                         bool hasReductions) {
  switch (precision) {
  case CheckPrecision::kF32:
    return hasReductions ? 1e-4 : 1e-5;
  case CheckPrecision::kTF32:
    // TF32 rounds each operand to 10 mantissa bits (2^-11 relative): the
    // norm-wise error of a TF32 matmul is about 3e-4, equal to cuBLAS's,
    // and its worst element, measured against the reference's RMS, reaches
    // 1.2e-3 (129x263x257 on an H100, docs/gemm.md).
    return 2e-3;
  case CheckPrecision::kF16:
  case CheckPrecision::kBF16:
    return 1e-2;
  case CheckPrecision::kF32FastMath:
    // PTX's tanh.approx.f32 has a relative error of up to 2^-10.99 (5e-4),
    // measured against the reference's RMS up to about 1e-3; ex2.approx and
    // lg2.approx add a few ulp (docs/runtime.md).
    return 2e-3;
  }
  return 0;
}

std::string uta::runtime::formatIndex(std::span<const int64_t> shape,
                                      int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] <= 0)
      break;
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d) {
    if (d != 0)
      text += ", ";
    text += std::to_string(index[d]);
  }
  return text + "]";
}

/// Whether a NaN looks like the poison pattern: sign set, exponent all ones,
/// and the top seven mantissa bits set.
static bool isPoison(float value) {
  return (std::bit_cast<uint32_t>(value) & 0xffff0000u) == 0xffff0000u;
}
static bool isPoison(double value) {
  return (std::bit_cast<uint64_t>(value) & 0xffffe00000000000u) ==
         0xffffe00000000000u;
}

template <typename T>
static Expected<Comparison>
compare(std::string_view name, std::span<const T> out,
        std::span<const double> ref, std::span<const int64_t> shape,
        double tolerance) {
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim != 0 && count > UINT64_MAX / uint64_t(dim)))
      return Status::error(ErrorCode::Internal,
                           std::string(name) + ": invalid shape");
    count *= uint64_t(dim);
  }
  if (out.size() != ref.size() || count != out.size())
    return Status::error(
        ErrorCode::Internal,
        std::string(name) + ": comparing " + std::to_string(out.size()) +
            " output elements with " + std::to_string(ref.size()) +
            " reference elements for a shape of " + std::to_string(count));

  Comparison result;
  result.name = std::string(name);
  result.shape.assign(shape.begin(), shape.end());
  result.tolerance = tolerance;

  // Pass 1: non-finite elements; the largest |ref| and |out - ref|.
  double refMax = 0, diffMax = 0;
  size_t n = out.size();
  for (size_t i = 0; i < n; ++i) {
    double o = double(out[i]), r = ref[i];
    bool finite = true;
    if (!std::isfinite(r)) {
      if (result.nonFiniteReference++ == 0) {
        result.firstNonFiniteReference = int64_t(i);
        result.firstNonFiniteReferenceValue = r;
      }
      finite = false;
    }
    if (!std::isfinite(o)) {
      if (result.nonFiniteOutputs++ == 0) {
        result.firstNonFiniteOutput = int64_t(i);
        result.firstNonFiniteValue = o;
      }
      if (std::isnan(o) && isPoison(out[i]))
        ++result.poisonedOutputs;
      finite = false;
    }
    if (!finite)
      continue;
    refMax = std::max(refMax, std::fabs(r));
    diffMax = std::max(diffMax, std::fabs(o - r));
  }

  // Pass 2: the norms, each sum of squares scaled by its largest term.
  double refSum = 0, diffSum = 0;
  for (size_t i = 0; i < n; ++i) {
    double o = double(out[i]), r = ref[i];
    if (!std::isfinite(o) || !std::isfinite(r))
      continue;
    if (refMax > 0) {
      double scaled = r / refMax;
      refSum += scaled * scaled;
    }
    if (diffMax > 0) {
      double scaled = (o - r) / diffMax;
      diffSum += scaled * scaled;
    }
  }
  double refNorm = refMax * std::sqrt(refSum);
  double diffNorm = diffMax * std::sqrt(diffSum);
  result.absolute = refNorm == 0;
  result.relL2 = result.absolute ? diffNorm : diffNorm / refNorm;

  // Pass 3: the elementwise error, floored by the RMS of the reference.
  double rms = n == 0 ? 0 : refNorm / std::sqrt(double(n));
  for (size_t i = 0; i < n; ++i) {
    double o = double(out[i]), r = ref[i];
    if (!std::isfinite(o) || !std::isfinite(r))
      continue;
    double error = std::fabs(o - r);
    if (rms > 0)
      error /= std::max(std::fabs(r), rms);
    if (result.maxIndex < 0 || error > result.maxRel) {
      result.maxRel = error;
      result.maxIndex = int64_t(i);
    }
  }

  if (result.nonFiniteReference > 0)
    result.verdict = Comparison::Verdict::kInvalidReference;
  else if (result.nonFiniteOutputs > 0 || !(result.relL2 <= tolerance) ||
           !(result.maxRel <= tolerance))
    result.verdict = Comparison::Verdict::kFail;
  else
    result.verdict = Comparison::Verdict::kPass;
  return result;
}

Expected<Comparison> uta::runtime::compareResult(std::string_view name,
                                                 std::span<const float> out,
                                                 std::span<const double> ref,
                                                 std::span<const int64_t> shape,
                                                 double tolerance) {
  return compare(name, out, ref, shape, tolerance);
}

Expected<Comparison> uta::runtime::compareResult(std::string_view name,
                                                 std::span<const double> out,
                                                 std::span<const double> ref,
                                                 std::span<const int64_t> shape,
                                                 double tolerance) {
  return compare(name, out, ref, shape, tolerance);
}

/// An error for the report: two significant digits, "0" for zero.
static std::string formatError(double value) {
  if (value == 0)
    return "0";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1e", value);
  return buffer;
}

/// A tolerance for the report: "1e-05", "2.5e-03".
static std::string formatTolerance(double value) {
  std::string text = formatError(value);
  size_t dot = text.find(".0e");
  if (dot != std::string::npos)
    text.erase(dot, 2);
  return text;
}

static std::string formatValue(double value) {
  if (std::isnan(value))
    return "nan";
  return value > 0 ? "inf" : "-inf";
}

std::string Comparison::getReport() const {
  std::string report = name + ": ";
  if (verdict == Verdict::kInvalidReference) {
    return report + "the reference has " + std::to_string(nonFiniteReference) +
           " non-finite element" + (nonFiniteReference == 1 ? "" : "s") +
           " (first: " + formatValue(firstNonFiniteReferenceValue) + " at " +
           formatIndex(shape, firstNonFiniteReference) +
           "); the test itself is invalid";
  }
  if (nonFiniteOutputs > 0) {
    report += std::to_string(nonFiniteOutputs) + " non-finite output" +
              (nonFiniteOutputs == 1 ? "" : "s");
    if (poisonedOutputs > 0)
      report += ", " + std::to_string(poisonedOutputs) +
                " still poisoned (never written)";
    report += " (first: " + formatValue(firstNonFiniteValue) + " at " +
              formatIndex(shape, firstNonFiniteOutput) + "); ";
  }
  report += (absolute ? "abs_l2 " : "rel_l2 ") + formatError(relL2) +
            (absolute ? " max_abs " : " max_rel ") + formatError(maxRel);
  if (maxIndex >= 0)
    report += " at " + formatIndex(shape, maxIndex);
  report += " (tol " + formatTolerance(tolerance) + ") ";
  return report + (passed() ? "ok" : "FAIL");
}

void uta::runtime::poisonWithNaN(std::span<std::byte> bytes) {
  if (!bytes.empty())
    std::memset(bytes.data(), 0xff, bytes.size());
}

void uta::runtime::poisonWithNaN(std::span<float> values) {
  poisonWithNaN(std::as_writable_bytes(values));
}

void uta::runtime::poisonWithNaN(std::span<double> values) {
  poisonWithNaN(std::as_writable_bytes(values));
}

void uta::runtime::poisonWithNaN(std::span<uint16_t> bits) {
  poisonWithNaN(std::as_writable_bytes(bits));
}
