//===- CompareTest.cpp - Tests of the --check comparison ------------------===//
//
// The comparison must fail on one bad element among 2^20 (off by 1e-3
// relative, a NaN, an element never written, an infinity) and pass on the
// rounding noise of float32 arithmetic. The report strings and errors of the
// small cases were worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Compare.h"

#include "runtime/core/Half.h"
#include "runtime/core/Random.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

using namespace uta::runtime;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// 2^20 reference values (normal, so of both signs and some near zero) as
/// the float32 inputs a backend would see, widened.
std::vector<double> makeReference(size_t n = size_t(1) << 20) {
  std::vector<float> inputs(n);
  NormalGenerator(17).fill(inputs);
  return std::vector<double>(inputs.begin(), inputs.end());
}

std::vector<float> roundToFloat(const std::vector<double> &values) {
  return std::vector<float>(values.begin(), values.end());
}

Comparison mustCompare(std::span<const float> out, std::span<const double> ref,
                       std::vector<int64_t> shape, double tolerance = 1e-5) {
  Expected<Comparison> result =
      compareResult("result0", out, ref, shape, tolerance);
  EXPECT_TRUE(result.ok());
  return result.ok() ? *result : Comparison();
}

const std::vector<int64_t> kShape = {1024, 1024};

TEST(CompareTest, Tolerances) {
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kF32, false), 1e-5);
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kF32, true), 1e-4);
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kTF32, false), 2e-3);
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kTF32, true), 2e-3);
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kF16, true), 1e-2);
  EXPECT_EQ(getDefaultTolerance(CheckPrecision::kBF16, false), 1e-2);
}

TEST(CompareTest, FormatIndex) {
  const int64_t matrix[] = {4, 32};
  EXPECT_EQ(formatIndex(matrix, 3 * 32 + 17), "[3, 17]");
  const int64_t cube[] = {2, 3, 4};
  EXPECT_EQ(formatIndex(cube, 23), "[1, 2, 3]");
  EXPECT_EQ(formatIndex(cube, 0), "[0, 0, 0]");
  EXPECT_EQ(formatIndex({}, 0), "[]");
}

TEST(CompareTest, HandWorkedReports) {
  // ref (3, 4, 0): ||ref|| = 5, rms = 5 / sqrt(3) = 2.887. out differs by
  // 0.01 in the zero element: rel_l2 = 0.01 / 5 = 2.0e-03; its elementwise
  // error is floored by the rms: 0.01 / 2.887 = 3.46e-03.
  const double ref[] = {3, 4, 0};
  const double out[] = {3, 4, 0.01};
  Expected<Comparison> result = compareResult("r", out, ref, {{3}}, 1e-2);
  ASSERT_TRUE(result.ok());
  EXPECT_NEAR(result->relL2, 2e-3, 1e-15);
  EXPECT_NEAR(result->maxRel, 0.01 / (5 / std::sqrt(3.0)), 1e-15);
  EXPECT_EQ(result->getReport(),
            "r: rel_l2 2.0e-03 max_rel 3.5e-03 at [2] (tol 1e-02) ok");

  // ref (3, 4), out (3, 4.4): rel_l2 = 0.4 / 5 = 0.08; element 1 is above
  // the rms (3.54), so its error is 0.4 / 4 = 0.1.
  const double ref2[] = {3, 4};
  const double out2[] = {3, 4.4};
  result = compareResult("y", out2, ref2, {{1, 2}}, 1e-2);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->getReport(),
            "y: rel_l2 8.0e-02 max_rel 1.0e-01 at [0, 1] (tol 1e-02) FAIL");

  // The same through the float32 entry point, tolerance 2.5e-3: 4.4f is
  // 4.400000095..., so the errors only move in digits not printed.
  const float out3[] = {3, 4.4f};
  result = compareResult("z", out3, ref2, {{2}}, 2.5e-3);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->getReport(),
            "z: rel_l2 8.0e-02 max_rel 1.0e-01 at [1] (tol 2.5e-03) FAIL");
}

TEST(CompareTest, PassesOnFloat32Rounding) {
  std::vector<double> ref = makeReference();
  std::vector<float> out = roundToFloat(ref);
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_TRUE(result.passed()) << result.getReport();
  // The inputs are float32 values already: the rounding is exact here.
  EXPECT_EQ(result.maxRel, 0);

  // Values that are not float32: out = (float)ref is off by up to 2^-24
  // relative.
  for (double &value : ref)
    value *= 1.0 / 3.0;
  out = roundToFloat(ref);
  result = mustCompare(out, ref, kShape);
  EXPECT_TRUE(result.passed()) << result.getReport();
  EXPECT_GT(result.maxRel, 0);
  EXPECT_LE(result.maxRel, 0x1p-24);
  EXPECT_LE(result.relL2, 0x1p-24);
}

TEST(CompareTest, PassesOnAFloat32FormulaAgainstItsFloat64Version) {
  // y = (a * b + c) / (1 + a * a) on float32 inputs, once in float32
  // arithmetic and once in float64. Where a * b + c nearly cancels, the
  // float32 result has a large error relative to itself; the rms floor is
  // what keeps this noise from failing.
  const size_t n = size_t(1) << 20;
  std::vector<float> a(n), b(n), c(n);
  NormalGenerator(1, 0).fill(a);
  NormalGenerator(1, 1).fill(b);
  NormalGenerator(1, 2).fill(c);
  std::vector<float> out(n);
  std::vector<double> ref(n);
  double worstPlainRelative = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = (a[i] * b[i] + c[i]) / (1.0f + a[i] * a[i]);
    double da = a[i], db = b[i], dc = c[i];
    ref[i] = (da * db + dc) / (1.0 + da * da);
    worstPlainRelative =
        std::max(worstPlainRelative,
                 std::fabs(double(out[i]) - ref[i]) / std::fabs(ref[i]));
  }
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_TRUE(result.passed()) << result.getReport();
  EXPECT_LT(result.maxRel, 1e-6);
  // Without the floor the same noise would fail.
  EXPECT_GT(worstPlainRelative, 1e-5);
}

TEST(CompareTest, FailsOnOneElementOff) {
  std::vector<double> ref = makeReference();
  // An element well above the rms (about 1 here): its own relative error
  // counts in full.
  size_t bad = 0;
  while (std::fabs(ref[bad]) < 2)
    ++bad;
  std::vector<float> out = roundToFloat(ref);
  out[bad] = float(ref[bad] * (1 + 1e-3));
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_FALSE(result.passed());
  EXPECT_EQ(result.verdict, Comparison::Verdict::kFail);
  EXPECT_EQ(result.maxIndex, int64_t(bad));
  EXPECT_NEAR(result.maxRel, 1e-3, 1e-6);
  // The norm-wise error alone would not see it.
  EXPECT_LT(result.relL2, 1e-5);
  EXPECT_NE(result.getReport().find("at " + formatIndex(kShape, int64_t(bad)) +
                                    " (tol 1e-05) FAIL"),
            std::string::npos)
      << result.getReport();

  // An element near zero off by 1e-3 of the rms fails as well.
  size_t small = 0;
  while (std::fabs(ref[small]) > 0.01)
    ++small;
  out = roundToFloat(ref);
  double rms = 0;
  for (double value : ref)
    rms += value * value;
  rms = std::sqrt(rms / double(ref.size()));
  out[small] = float(ref[small] + 1e-3 * rms);
  result = mustCompare(out, ref, kShape);
  EXPECT_FALSE(result.passed());
  EXPECT_EQ(result.maxIndex, int64_t(small));
  EXPECT_NEAR(result.maxRel, 1e-3, 1e-5);
}

TEST(CompareTest, FailsOnOneNaN) {
  std::vector<double> ref = makeReference();
  std::vector<float> out = roundToFloat(ref);
  out[123457] = std::numeric_limits<float>::quiet_NaN();
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_EQ(result.verdict, Comparison::Verdict::kFail);
  EXPECT_EQ(result.nonFiniteOutputs, 1);
  EXPECT_EQ(result.poisonedOutputs, 0);
  EXPECT_EQ(result.firstNonFiniteOutput, 123457);
  // The other elements are still measured: they are exact.
  EXPECT_EQ(result.maxRel, 0);
  EXPECT_EQ(result.getReport(),
            "result0: 1 non-finite output (first: nan at [120, 577]); "
            "rel_l2 0 max_rel 0 at [0, 0] (tol 1e-05) FAIL");
}

TEST(CompareTest, FailsOnOneElementNeverWritten) {
  std::vector<double> ref = makeReference();
  std::vector<float> out(ref.size());
  poisonWithNaN(out);
  // The "kernel" writes every element but the last.
  for (size_t i = 0; i + 1 < out.size(); ++i)
    out[i] = float(ref[i]);
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_EQ(result.verdict, Comparison::Verdict::kFail);
  EXPECT_EQ(result.nonFiniteOutputs, 1);
  EXPECT_EQ(result.poisonedOutputs, 1);
  EXPECT_EQ(result.getReport(),
            "result0: 1 non-finite output, 1 still poisoned (never written) "
            "(first: nan at [1023, 1023]); rel_l2 0 max_rel 0 at [0, 0] "
            "(tol 1e-05) FAIL");
}

TEST(CompareTest, FailsOnInfinities) {
  std::vector<double> ref = makeReference();
  std::vector<float> out = roundToFloat(ref);
  out[5] = std::numeric_limits<float>::infinity();
  Comparison result = mustCompare(out, ref, kShape);
  EXPECT_EQ(result.verdict, Comparison::Verdict::kFail);
  EXPECT_EQ(result.nonFiniteOutputs, 1);
  EXPECT_NE(result.getReport().find("(first: inf at [0, 5])"),
            std::string::npos);
  out[5] = -std::numeric_limits<float>::infinity();
  result = mustCompare(out, ref, kShape);
  EXPECT_FALSE(result.passed());
  EXPECT_NE(result.getReport().find("(first: -inf at [0, 5])"),
            std::string::npos);
}

TEST(CompareTest, NonFiniteReferenceInvalidatesTheTest) {
  const double ref[] = {1, kInf, 2, std::nan("")};
  const float out[] = {1, 1, 2, 3};
  Expected<Comparison> result =
      compareResult("result1", out, ref, {{2, 2}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->verdict, Comparison::Verdict::kInvalidReference);
  EXPECT_FALSE(result->passed());
  EXPECT_EQ(result->getReport(),
            "result1: the reference has 2 non-finite elements (first: inf at "
            "[0, 1]); the test itself is invalid");
}

TEST(CompareTest, ZeroReferenceUsesAbsoluteErrors) {
  const double ref[] = {0, 0, 0};
  const float exact[] = {0, -0.0f, 0};
  Expected<Comparison> result = compareResult("z", exact, ref, {{3}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->getReport(), "z: abs_l2 0 max_abs 0 at [0] (tol 1e-05) ok");
  // 3e-5 and 4e-5 absolute: abs_l2 = 5e-5, max_abs = 4e-5.
  const double off[] = {0, 3e-5, -4e-5};
  result = compareResult("z", off, ref, {{3}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_NEAR(result->relL2, 5e-5, 1e-18);
  EXPECT_EQ(result->getReport(),
            "z: abs_l2 5.0e-05 max_abs 4.0e-05 at [2] (tol 1e-05) FAIL");
}

TEST(CompareTest, EmptyAndScalarResults) {
  Expected<Comparison> result = compareResult(
      "e", std::span<const float>(), std::span<const double>(), {{0, 3}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->passed());
  EXPECT_EQ(result->getReport(), "e: abs_l2 0 max_abs 0 (tol 1e-05) ok");
  const double ref[] = {2};
  const float out[] = {2};
  result = compareResult("s", out, ref, {}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->getReport(), "s: rel_l2 0 max_rel 0 at [] (tol 1e-05) ok");
}

TEST(CompareTest, SizeMismatchIsAnInternalError) {
  const double ref[] = {1, 2, 3};
  const float out[] = {1, 2};
  Expected<Comparison> result = compareResult("m", out, ref, {{3}}, 1e-5);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::Internal);
  EXPECT_EQ(result.status().message(),
            "m: comparing 2 output elements with 3 reference elements for a "
            "shape of 3");
  const float out3[] = {1, 2, 3};
  result = compareResult("m", out3, ref, {{2, 2}}, 1e-5);
  ASSERT_FALSE(result.ok());
}

TEST(CompareTest, HugeValuesDoNotOverflowTheNorms) {
  const double ref[] = {1e200, -3e200, 2e200};
  const double out[] = {1e200, -3e200, 2e200};
  Expected<Comparison> result = compareResult("h", out, ref, {{3}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->passed()) << result->getReport();
  const double wild[] = {1, 1e300, 1};
  const double unit[] = {1, 1, 1};
  result = compareResult("h", wild, unit, {{3}}, 1e-5);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->passed());
  EXPECT_TRUE(std::isfinite(result->relL2));
  EXPECT_NEAR(result->relL2, 1e300 / std::sqrt(3.0), 1e287);
}

TEST(CompareTest, HalfPrecisionTolerances) {
  std::vector<double> ref = makeReference();
  for (double &value : ref)
    value *= 1.0 / 3.0;
  std::vector<float> viaHalf(ref.size()), viaBfloat(ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    viaHalf[i] = halfToFloat(floatToHalf(float(ref[i])));
    viaBfloat[i] = bfloat16ToFloat(floatToBfloat16(float(ref[i])));
  }
  double f16 = getDefaultTolerance(CheckPrecision::kF16, false);
  double bf16 = getDefaultTolerance(CheckPrecision::kBF16, false);
  EXPECT_TRUE(mustCompare(viaHalf, ref, kShape, f16).passed());
  EXPECT_TRUE(mustCompare(viaBfloat, ref, kShape, bf16).passed());
  // 16-bit rounding is far above the float32 tolerance.
  EXPECT_FALSE(mustCompare(viaHalf, ref, kShape, 1e-5).passed());
  EXPECT_FALSE(mustCompare(viaBfloat, ref, kShape, 1e-4).passed());
}

TEST(CompareTest, PoisonIsNaNInEveryFormat) {
  std::vector<float> floats(4, 1.0f);
  poisonWithNaN(floats);
  for (float value : floats) {
    EXPECT_TRUE(std::isnan(value));
    EXPECT_EQ(std::bit_cast<uint32_t>(value), 0xffffffffu);
  }
  std::vector<double> doubles(2, 1.0);
  poisonWithNaN(doubles);
  EXPECT_EQ(std::bit_cast<uint64_t>(doubles[0]), 0xffffffffffffffffu);
  EXPECT_TRUE(std::isnan(doubles[1]));
  std::vector<uint16_t> bits(3, 0);
  poisonWithNaN(bits);
  EXPECT_EQ(bits, (std::vector<uint16_t>{0xffff, 0xffff, 0xffff}));
  EXPECT_TRUE(std::isnan(halfToFloat(bits[0])));
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(bits[0])));

  // A 16-bit result that was never written is still recognised after it is
  // widened for the comparison, and so is a float32 one widened to double.
  const double ref[] = {1, 2};
  const float widened[] = {halfToFloat(0xffff), bfloat16ToFloat(0xffff)};
  Expected<Comparison> result = compareResult("p", widened, ref, {{2}}, 1e-2);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->poisonedOutputs, 2);
  const double asDouble[] = {double(floats[0]), 2};
  result = compareResult("p", asDouble, ref, {{2}}, 1e-2);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->poisonedOutputs, 1);
  // NaNs from arithmetic do not look poisoned: the x86 default NaN and the
  // canonical CUDA NaN.
  const float computed[] = {std::bit_cast<float>(0xffc00000u),
                            std::bit_cast<float>(0x7fffffffu)};
  result = compareResult("p", computed, ref, {{2}}, 1e-2);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->nonFiniteOutputs, 2);
  EXPECT_EQ(result->poisonedOutputs, 0);
}

} // namespace
