//===- KernelsTest.cpp - Golden tests of the uta reference kernels --------===//
//
// Every expected value here is a literal worked out by hand from the ops'
// definitions (docs/dialects/UTADialect.md), or, for transcendental
// functions, the double nearest to the exact value (40-digit mpmath
// evaluations of the textbook formula, written in as literals). None is
// recomputed by the code under test.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/Kernels.h"

#include "TestUtil.h"

#include <cmath>
#include <limits>

using namespace mlir::uta::reference;
using namespace mlir::uta::reference::test;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
/// Libm's exp, log, erf and tanh are within an ulp or two; 1e-15 relative
/// still rejects any wrong formula or constant.
const double kTol = 1e-15;

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

TEST(ReferenceBinary, AddBroadcastsTrailingVector) {
  RefTensor a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  RefTensor b{{3}, {10, 20, 30}};
  EXPECT_TRUE(matches(get(binary(BinaryKind::Add, a, b)), {2, 3},
                      {11, 22, 33, 14, 25, 36}));
  // Commuted operands give the same broadcast.
  EXPECT_TRUE(matches(get(binary(BinaryKind::Add, b, a)), {2, 3},
                      {11, 22, 33, 14, 25, 36}));
}

TEST(ReferenceBinary, SubColumnMinusRow) {
  // [2, 1] - [1, 3] -> [2, 3]: out[i][j] = a[i] - b[j].
  RefTensor a{{2, 1}, {1, 2}};
  RefTensor b{{1, 3}, {10, 20, 30}};
  EXPECT_TRUE(matches(get(binary(BinaryKind::Sub, a, b)), {2, 3},
                      {-9, -19, -29, -8, -18, -28}));
  EXPECT_TRUE(matches(get(binary(BinaryKind::Sub, b, a)), {2, 3},
                      {9, 19, 29, 8, 18, 28}));
}

TEST(ReferenceBinary, MulByRankZeroScalar) {
  RefTensor s{{}, {2}};
  RefTensor b{{2, 2}, {1, 2, 3, 4}};
  EXPECT_TRUE(
      matches(get(binary(BinaryKind::Mul, s, b)), {2, 2}, {2, 4, 6, 8}));
  EXPECT_TRUE(matches(get(binary(BinaryKind::Mul, s, s)), {}, {4}));
}

TEST(ReferenceBinary, DivByColumn) {
  RefTensor a{{2, 2}, {1, 2, 3, 4}};
  RefTensor b{{2, 1}, {2, 4}};
  EXPECT_TRUE(
      matches(get(binary(BinaryKind::Div, a, b)), {2, 2}, {0.5, 1, 0.75, 1}));
  RefTensor zero{{}, {0}};
  RefTensor num{{3}, {1, -1, 0}};
  EXPECT_TRUE(matches(get(binary(BinaryKind::Div, num, zero)), {3},
                      {kInf, -kInf, kNaN}));
}

TEST(ReferenceBinary, ThreeDimensionalBroadcast) {
  // [2, 1, 3] + [4, 1] -> [2, 4, 3]: out[i][j][k] = a[i][0][k] + b[j][0].
  RefTensor a{{2, 1, 3}, {0, 1, 2, 3, 4, 5}};
  RefTensor b{{4, 1}, {100, 200, 300, 400}};
  EXPECT_TRUE(
      matches(get(binary(BinaryKind::Add, a, b)), {2, 4, 3},
              {100, 101, 102, 200, 201, 202, 300, 301, 302, 400, 401, 402,
               103, 104, 105, 203, 204, 205, 303, 304, 305, 403, 404, 405}));
}

TEST(ReferenceBinary, MaxMinPropagateNaNAndOrderZeros) {
  RefTensor a{{5}, {1, kNaN, -0.0, 3, 2}};
  RefTensor b{{5}, {2, 5, 0.0, -1, kNaN}};
  RefTensor max = get(binary(BinaryKind::Max, a, b));
  EXPECT_TRUE(matches(max, {5}, {2, kNaN, 0, 3, kNaN}));
  EXPECT_FALSE(std::signbit(max.data[2])) << "max(-0, +0) must be +0";
  RefTensor min = get(binary(BinaryKind::Min, a, b));
  EXPECT_TRUE(matches(min, {5}, {1, kNaN, 0, -1, kNaN}));
  EXPECT_TRUE(std::signbit(min.data[2])) << "min(-0, +0) must be -0";
  // The order of the operands does not matter for zeros either.
  EXPECT_FALSE(std::signbit(applyBinary(BinaryKind::Max, 0.0, -0.0)));
  EXPECT_TRUE(std::signbit(applyBinary(BinaryKind::Min, 0.0, -0.0)));
  EXPECT_TRUE(std::isnan(applyBinary(BinaryKind::Max, kNaN, kInf)));
  EXPECT_TRUE(std::isnan(applyBinary(BinaryKind::Min, -kInf, kNaN)));
}

TEST(ReferenceBinary, RejectsIncompatibleShapes) {
  RefTensor a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  RefTensor b{{2}, {1, 2}};
  EXPECT_EQ(errorOf(binary(BinaryKind::Add, a, b)),
            "shapes [2, 3] and [2] are not broadcast-compatible");
  RefTensor bad{{2, 2}, {1, 2, 3}};
  EXPECT_EQ(errorOf(binary(BinaryKind::Add, bad, bad)),
            "lhs has shape [2, 2] but 3 values");
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

TEST(ReferenceUnary, SimpleOps) {
  RefTensor x{{4}, {-3, -0.5, 0, 2}};
  EXPECT_TRUE(matches(unary(UnaryKind::Neg, x), {4}, {3, 0.5, 0, -2}));
  EXPECT_TRUE(matches(unary(UnaryKind::Abs, x), {4}, {3, 0.5, 0, 2}));
  EXPECT_TRUE(matches(unary(UnaryKind::Relu, x), {4}, {0, 0, 0, 2}));
  EXPECT_TRUE(std::isnan(applyUnary(UnaryKind::Relu, kNaN)));
  EXPECT_FALSE(std::signbit(applyUnary(UnaryKind::Relu, -0.0)));
  EXPECT_FALSE(std::signbit(applyUnary(UnaryKind::Abs, -0.0)));
}

TEST(ReferenceUnary, Sign) {
  RefTensor x{{8}, {-3, -0.5, -0.0, 0.0, 2, kInf, -kInf, kNaN}};
  EXPECT_TRUE(
      matches(unary(UnaryKind::Sign, x), {8}, {-1, -1, 0, 0, 1, 1, -1, kNaN}));
  // A zero comes back with its sign.
  EXPECT_TRUE(std::signbit(applyUnary(UnaryKind::Sign, -0.0)));
  EXPECT_FALSE(std::signbit(applyUnary(UnaryKind::Sign, 0.0)));
  EXPECT_EQ(applyUnary(UnaryKind::Sign, 1e-310), 1.0); // subnormal
}

TEST(ReferenceUnary, ExpLog) {
  RefTensor x{{3}, {0, 1, -1}};
  EXPECT_TRUE(matches(unary(UnaryKind::Exp, x), {3},
                      {1, 2.718281828459045, 0.36787944117144233}, kTol));
  RefTensor y{{5}, {1, 2, 0, -1, 2.718281828459045}};
  EXPECT_TRUE(matches(unary(UnaryKind::Log, y), {5},
                      {0, 0.6931471805599453, -kInf, kNaN, 1}, kTol));
}

TEST(ReferenceUnary, SqrtRsqrt) {
  RefTensor x{{4}, {4, 2, 0, -1}};
  EXPECT_TRUE(matches(unary(UnaryKind::Sqrt, x), {4},
                      {2, 1.4142135623730951, 0, kNaN}, kTol));
  EXPECT_TRUE(matches(unary(UnaryKind::Rsqrt, x), {4},
                      {0.5, 0.7071067811865476, kInf, kNaN}, kTol));
}

TEST(ReferenceUnary, TanhSigmoidSilu) {
  RefTensor x{{4}, {0, 1, -1, 0.5}};
  EXPECT_TRUE(matches(
      unary(UnaryKind::Tanh, x), {4},
      {0, 0.7615941559557649, -0.7615941559557649, 0.46211715726000974}, kTol));
  RefTensor s{{4}, {0, 1, -1, 2}};
  EXPECT_TRUE(matches(
      unary(UnaryKind::Sigmoid, s), {4},
      {0.5, 0.7310585786300049, 0.2689414213699951, 0.8807970779778824}, kTol));
  // silu(2) = 2 sigmoid(2) = 1 + tanh(1).
  EXPECT_TRUE(matches(
      unary(UnaryKind::Silu, s), {4},
      {0, 0.7310585786300049, -0.2689414213699951, 1.7615941559557649}, kTol));
  // Saturation: no overflow to NaN at large |x|.
  EXPECT_EQ(applyUnary(UnaryKind::Sigmoid, -1000), 0.0);
  EXPECT_EQ(applyUnary(UnaryKind::Sigmoid, 1000), 1.0);
  EXPECT_EQ(applyUnary(UnaryKind::Silu, -1000), 0.0);
}

TEST(ReferenceUnary, Erf) {
  // erf(1) = 0.8427007929497149, odd, signed zero kept, saturates at ±1.
  RefTensor x{{6}, {0, 1, -1, 0.5, -0.0, 10}};
  EXPECT_TRUE(matches(
      unary(UnaryKind::Erf, x), {6},
      {0, 0.8427007929497149, -0.8427007929497149, 0.5204998778130465, -0.0, 1},
      kTol));
  EXPECT_TRUE(std::signbit(applyUnary(UnaryKind::Erf, -0.0)));
}

TEST(ReferenceBinary, PowSpecialCases) {
  // 2^10, 9^0.5, 2^-1 broadcast over the exponent; C's special cases:
  // pow(x, 0) = 1 even for NaN, pow(1, y) = 1 even for NaN, NaN for a
  // negative base with a non-integer exponent, inf for 0^-1.
  RefTensor base{{3, 1}, {2, 9, 4}};
  RefTensor exponent{{2}, {0.5, -1}};
  EXPECT_TRUE(matches(get(binary(BinaryKind::Pow, base, exponent)), {3, 2},
                      {1.4142135623730951, 0.5, 3, 0.1111111111111111, 2, 0.25},
                      kTol));
  EXPECT_EQ(applyBinary(BinaryKind::Pow, kNaN, 0), 1.0);
  EXPECT_EQ(applyBinary(BinaryKind::Pow, 1, kNaN), 1.0);
  EXPECT_TRUE(std::isnan(applyBinary(BinaryKind::Pow, -2, 0.5)));
  EXPECT_EQ(applyBinary(BinaryKind::Pow, -2, 3), -8.0);
  EXPECT_EQ(applyBinary(BinaryKind::Pow, 0, -1), kInf);
}

TEST(ReferenceUnary, GeluExactErfForm) {
  // gelu(x) = x Phi(x); Phi(1) = 0.8413447460685429 is the normal CDF.
  RefTensor x{{5}, {0, 1, -1, 2, 0.5}};
  EXPECT_TRUE(matches(unary(UnaryKind::Gelu, x), {5},
                      {0, 0.8413447460685429, -0.15865525393145705,
                       1.9544997361036416, 0.34573123063700656},
                      kTol));
}

TEST(ReferenceUnary, GeluTanhApproximation) {
  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); close to, but not equal
  // to, the erf form above (0.84119... against 0.84134... at 1).
  RefTensor x{{5}, {0, 1, -1, 2, 0.5}};
  EXPECT_TRUE(matches(unary(UnaryKind::GeluTanh, x), {5},
                      {0, 0.8411919906082767, -0.1588080093917233,
                       1.954597694087775, 0.34571400982514394},
                      1e-14));
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

TEST(ReferenceMatmul, TwoByThreeTimesThreeByTwo) {
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
  RefTensor a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  RefTensor b{{3, 2}, {7, 8, 9, 10, 11, 12}};
  EXPECT_TRUE(matches(get(matmul(a, b, false)), {2, 2}, {58, 64, 139, 154}));
  // The same product with b given as its transpose [N, K].
  RefTensor bt{{2, 3}, {7, 9, 11, 8, 10, 12}};
  EXPECT_TRUE(matches(get(matmul(a, bt, true)), {2, 2}, {58, 64, 139, 154}));
  // a given as its transpose [K, M], with b as stored and transposed.
  RefTensor at{{3, 2}, {1, 4, 2, 5, 3, 6}};
  EXPECT_TRUE(matches(get(matmul(at, b, false, /*transposeA=*/true)), {2, 2},
                      {58, 64, 139, 154}));
  EXPECT_TRUE(matches(get(matmul(at, bt, true, /*transposeA=*/true)), {2, 2},
                      {58, 64, 139, 154}));
  // at read as [M, K] has K = 2, against b's 3; transposed, its K is 3.
  EXPECT_EQ(errorOf(matmul(at, b, false)),
            "matmul contraction sizes differ: lhs [3, 2], rhs [3, 2]");
  EXPECT_EQ(errorOf(matmul(a, b, false, /*transposeA=*/true)),
            "matmul contraction sizes differ: lhs [2, 3] (transposed), rhs "
            "[3, 2]");
}

TEST(ReferenceMatmul, RankTwoRhsUnderRankThreeLhs) {
  // a[0] = identity, a[1] = [[1,2],[3,4]]; b = [[5,6],[7,8]].
  RefTensor a{{2, 2, 2}, {1, 0, 0, 1, 1, 2, 3, 4}};
  RefTensor b{{2, 2}, {5, 6, 7, 8}};
  EXPECT_TRUE(matches(get(matmul(a, b, false)), {2, 2, 2},
                      {5, 6, 7, 8, 19, 22, 43, 50}));
}

TEST(ReferenceMatmul, RankTwoLhsOverRankThreeRhs) {
  // a = [[1,2],[3,4]]; b[0] = identity, b[1] = [[0,1],[1,0]] swaps columns.
  RefTensor a{{2, 2}, {1, 2, 3, 4}};
  RefTensor b{{2, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0}};
  EXPECT_TRUE(
      matches(get(matmul(a, b, false)), {2, 2, 2}, {1, 2, 3, 4, 2, 1, 4, 3}));
}

TEST(ReferenceMatmul, BatchDimsBroadcastBothWays) {
  // a [2, 1, 1, 2] (row vectors), b [1, 3, 2, 1] (column vectors) ->
  // [2, 3, 1, 1]: out[i][j] = a_i . b_j.
  RefTensor a{{2, 1, 1, 2}, {1, 2, 3, 4}};
  RefTensor b{{1, 3, 2, 1}, {1, 0, 0, 1, 1, 1}};
  EXPECT_TRUE(
      matches(get(matmul(a, b, false)), {2, 3, 1, 1}, {1, 2, 3, 3, 4, 7}));
}

TEST(ReferenceMatmul, TransposeBWithBatch) {
  // a [2, 1, 2]; b [N=3, K=2] transposed: rows (1,0), (0,1), (1,-1).
  RefTensor a{{2, 1, 2}, {1, 2, 3, 4}};
  RefTensor b{{3, 2}, {1, 0, 0, 1, 1, -1}};
  EXPECT_TRUE(
      matches(get(matmul(a, b, true)), {2, 1, 3}, {1, 2, -1, 3, 4, -1}));
}

TEST(ReferenceMatmul, RejectsBadShapes) {
  RefTensor a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_EQ(errorOf(matmul(a, a, false)),
            "matmul contraction sizes differ: lhs [2, 3], rhs [2, 3]");
  RefTensor v{{3}, {1, 2, 3}};
  EXPECT_EQ(errorOf(matmul(a, v, false)),
            "matmul operands must have rank >= 2, got [2, 3] and [3]");
  RefTensor c{{2, 3, 3}, std::vector<double>(18, 1)};
  RefTensor d{{3, 3, 3}, std::vector<double>(27, 1)};
  EXPECT_EQ(errorOf(matmul(c, d, false)),
            "shapes [2] and [3] are not broadcast-compatible");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TEST(ReferenceReduce, SumOverEachDim) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {0}, false)), {3}, {5, 7, 9}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {0}, true)), {1, 3}, {5, 7, 9}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {1}, false)), {2}, {6, 15}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {1}, true)), {2, 1}, {6, 15}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {0, 1}, false)), {}, {21}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {0, 1}, true)), {1, 1}, {21}));
}

TEST(ReferenceReduce, OuterDimsOfRankThree) {
  // x[i][j][k] = 4i + 2j + k; reduce over i and k.
  RefTensor x{{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}};
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Sum, x, {0, 2}, false)), {2},
                      {0 + 1 + 4 + 5, 2 + 3 + 6 + 7}));
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Sum, x, {0, 2}, true)), {1, 2, 1},
                      {10, 18}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Max, x, {0, 2}, false)), {2}, {5, 7}));
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Mean, x, {0, 2}, true)), {1, 2, 1},
                      {2.5, 4.5}));
}

TEST(ReferenceReduce, MaxAndMean) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Max, x, {1}, false)), {2}, {3, 6}));
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Mean, x, {0}, false)), {3},
                      {2.5, 3.5, 4.5}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Mean, x, {0, 1}, false)), {}, {3.5}));
  // All negative: the running max must not start at 0.
  RefTensor neg{{3}, {-3, -1, -2}};
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Max, neg, {0}, false)), {}, {-1}));
  // NaN propagates through max, and through sum and mean.
  RefTensor nan{{2, 3}, {1, kNaN, 3, 4, 5, 6}};
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Max, nan, {1}, false)), {2}, {kNaN, 6}));
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Mean, nan, {1}, false)), {2}, {kNaN, 5}));
}

TEST(ReferenceReduce, UnsortedDimsAndNoDims) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(
      matches(get(reduce(ReduceKind::Sum, x, {1, 0}, false)), {}, {21}));
  EXPECT_TRUE(matches(get(reduce(ReduceKind::Sum, x, {}, false)), {2, 3},
                      {1, 2, 3, 4, 5, 6}));
}

TEST(ReferenceReduce, RejectsBadDims) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_EQ(errorOf(reduce(ReduceKind::Sum, x, {2}, false)),
            "reduction dim 2 is out of range for rank 2");
  EXPECT_EQ(errorOf(reduce(ReduceKind::Sum, x, {-1}, false)),
            "reduction dim -1 is out of range for rank 2");
  EXPECT_EQ(errorOf(reduce(ReduceKind::Sum, x, {1, 1}, false)),
            "reduction dim 1 is repeated");
}

//===----------------------------------------------------------------------===//
// Softmax and layer norm
//===----------------------------------------------------------------------===//

TEST(ReferenceSoftmax, LastDim) {
  // exp of (0, ln 2, ln 3) is (1, 2, 3); the sum is 6.
  RefTensor x{{3}, {0, 0.6931471805599453, 1.0986122886681098}};
  EXPECT_TRUE(matches(get(softmax(x, 0)), {3}, {1.0 / 6, 1.0 / 3, 0.5}, kTol));
  // Rows: equal values give thirds; (0, 0, ln 2) gives (1, 1, 2) / 4.
  RefTensor y{{2, 3}, {1, 1, 1, 0, 0, 0.6931471805599453}};
  EXPECT_TRUE(matches(get(softmax(y, 1)), {2, 3},
                      {1.0 / 3, 1.0 / 3, 1.0 / 3, 0.25, 0.25, 0.5}, kTol));
}

TEST(ReferenceSoftmax, FirstDimSubtractsTheMax) {
  // Column 0: (0, ln 3) -> (1/4, 3/4). Column 1: (1000, 1000) -> halves;
  // exp(1000) overflows, so this holds only with the max subtracted.
  RefTensor x{{2, 2}, {0, 1000, 1.0986122886681098, 1000}};
  EXPECT_TRUE(
      matches(get(softmax(x, 0)), {2, 2}, {0.25, 0.5, 0.75, 0.5}, kTol));
  EXPECT_EQ(errorOf(softmax(x, 2)), "softmax dim 2 is out of range for rank 2");
}

TEST(ReferenceLayerNorm, LastAxis) {
  // Row (1,2,3,4): mean 2.5, deviations (-1.5,-0.5,0.5,1.5), biased variance
  // (2.25+0.25+0.25+2.25)/4 = 1.25; with epsilon 2.75 the scale is
  // 1/sqrt(4) = 1/2, so the normalised row is (-0.75,-0.25,0.25,0.75).
  // Row (-1,-2,-3,-4) normalises to the negation. Then * w + b with
  // w = (1,2,3,4), b = (0,1,0,-1).
  RefTensor x{{2, 4}, {1, 2, 3, 4, -1, -2, -3, -4}};
  RefTensor w{{4}, {1, 2, 3, 4}};
  RefTensor b{{4}, {0, 1, 0, -1}};
  EXPECT_TRUE(matches(get(layerNorm(x, w, b, 1, 2.75)), {2, 4},
                      {-0.75, 0.5, 0.75, 2, 0.75, 1.5, -0.75, -4}));
}

TEST(ReferenceLayerNorm, TrailingTwoAxes) {
  // Over [2, 2]: (1,3,5,7) has mean 4, deviations (-3,-1,1,3), biased
  // variance 20/4 = 5 (unbiased would be 20/3); epsilon 4 gives scale 1/3.
  // Normalised (-1,-1/3,1/3,1), then * 3 + 1 = (-2, 0, 2, 4).
  RefTensor x{{1, 2, 2}, {1, 3, 5, 7}};
  RefTensor w{{2, 2}, {3, 3, 3, 3}};
  RefTensor b{{2, 2}, {1, 1, 1, 1}};
  EXPECT_TRUE(
      matches(get(layerNorm(x, w, b, 1, 4.0)), {1, 2, 2}, {-2, 0, 2, 4}, kTol));
  // A constant row normalises to zero and leaves the bias.
  RefTensor c{{1, 2, 2}, {5, 5, 5, 5}};
  EXPECT_TRUE(
      matches(get(layerNorm(c, w, b, 1, 4.0)), {1, 2, 2}, {1, 1, 1, 1}));
}

TEST(ReferenceLayerNorm, RejectsBadParameters) {
  RefTensor x{{1, 2, 2}, {1, 3, 5, 7}};
  RefTensor w{{2}, {1, 1}};
  EXPECT_EQ(errorOf(layerNorm(x, w, w, 1, 1e-5)),
            "layer_norm weight [2] and bias [2] must have the normalised "
            "shape [2, 2]");
  EXPECT_EQ(errorOf(layerNorm(x, w, w, 3, 1e-5)),
            "layer_norm axis 3 is out of range for rank 3");
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

TEST(ReferenceTranspose, MatrixAndRankThree) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(matches(get(transpose(x, {1, 0})), {3, 2}, {1, 4, 2, 5, 3, 6}));
  EXPECT_TRUE(matches(get(transpose(x, {0, 1})), {2, 3}, {1, 2, 3, 4, 5, 6}));
  // x[j][k][i] = 12j + 4k + i; y = transpose(x, (2, 0, 1)) has shape
  // [4, 2, 3] and y[i][j][k] = x[j][k][i].
  RefTensor z{{2, 3, 4}, {}};
  for (int v = 0; v < 24; ++v)
    z.data.push_back(v);
  EXPECT_TRUE(matches(get(transpose(z, {2, 0, 1})), {4, 2, 3},
                      {0, 4, 8,  12, 16, 20, 1, 5, 9,  13, 17, 21,
                       2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}));
  EXPECT_EQ(errorOf(transpose(x, {0, 0})), "permutation entry 0 is repeated");
  EXPECT_EQ(errorOf(transpose(x, {0})), "permutation has 1 entries for rank 2");
}

TEST(ReferenceReshape, KeepsCOrder) {
  RefTensor x{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(matches(get(reshape(x, {3, 2})), {3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(matches(get(reshape(x, {6})), {6}, {1, 2, 3, 4, 5, 6}));
  RefTensor s{{1, 1}, {7}};
  EXPECT_TRUE(matches(get(reshape(s, {})), {}, {7}));
  EXPECT_EQ(errorOf(reshape(x, {4})),
            "cannot reshape [2, 3] (6 elements) to [4] (4 elements)");
}

TEST(ReferenceBroadcastTo, NumPyRules) {
  RefTensor row{{3}, {1, 2, 3}};
  EXPECT_TRUE(
      matches(get(broadcastTo(row, {2, 3})), {2, 3}, {1, 2, 3, 1, 2, 3}));
  RefTensor col{{2, 1}, {1, 2}};
  EXPECT_TRUE(
      matches(get(broadcastTo(col, {2, 3})), {2, 3}, {1, 1, 1, 2, 2, 2}));
  RefTensor scalar{{}, {5}};
  EXPECT_TRUE(matches(get(broadcastTo(scalar, {2})), {2}, {5, 5}));
  EXPECT_EQ(errorOf(broadcastTo(row, {3, 2})),
            "cannot broadcast [3] to [3, 2]");
  EXPECT_EQ(errorOf(broadcastTo(col, {2})), "cannot broadcast [2, 1] to [2]");
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

TEST(ReferenceCast, ToF16) {
  // f16 has 11 significant bits, a largest finite value of 65504 and
  // subnormals down to 2^-24.
  // 0.1 = 1.6 * 2^-4; 1.6 * 2^10 = 1638.4 -> 1638, so 1638 * 2^-14.
  EXPECT_EQ(roundTo(0.1, FloatFormat::F16), 0.0999755859375);
  EXPECT_EQ(roundTo(1.0, FloatFormat::F16), 1.0);
  // Halfway cases round to the even significand.
  EXPECT_EQ(roundTo(0x1.002p0, FloatFormat::F16), 1.0);
  EXPECT_EQ(roundTo(0x1.006p0, FloatFormat::F16), 0x1.008p0);
  EXPECT_EQ(roundTo(-0x1.006p0, FloatFormat::F16), -0x1.008p0);
  // Just above halfway rounds up.
  EXPECT_EQ(roundTo(0x1.00200001p0, FloatFormat::F16), 0x1.004p0);
  // Range: 65519 rounds down to 65504; 65520 is halfway to 2^16, rounds to
  // the even 2^16 and so overflows.
  EXPECT_EQ(roundTo(65504.0, FloatFormat::F16), 65504.0);
  EXPECT_EQ(roundTo(65519.0, FloatFormat::F16), 65504.0);
  EXPECT_EQ(roundTo(65520.0, FloatFormat::F16), kInf);
  EXPECT_EQ(roundTo(-1e5, FloatFormat::F16), -kInf);
  // Subnormals: 2^-24 is the smallest; 2^-25 is halfway to 0 (even);
  // 3 * 2^-26 rounds up to 2^-24; 3 * 2^-25 is halfway, to the even 2^-23.
  EXPECT_EQ(roundTo(0x1p-24, FloatFormat::F16), 0x1p-24);
  EXPECT_EQ(roundTo(0x1p-25, FloatFormat::F16), 0.0);
  EXPECT_EQ(roundTo(0x3p-26, FloatFormat::F16), 0x1p-24);
  EXPECT_EQ(roundTo(0x3p-25, FloatFormat::F16), 0x1p-23);
  EXPECT_TRUE(std::isnan(roundTo(kNaN, FloatFormat::F16)));
  EXPECT_EQ(roundTo(kInf, FloatFormat::F16), kInf);

  RefTensor x{{2, 2}, {0.1, 65520.0, 0x1.006p0, -3.0}};
  EXPECT_TRUE(matches(cast(x, FloatFormat::F16), {2, 2},
                      {0.0999755859375, kInf, 0x1.008p0, -3.0}));
}

TEST(ReferenceCast, ToBF16) {
  // bf16 has 8 significant bits and f32's exponent range.
  // 0.1 = 1.6 * 2^-4; 1.6 * 2^7 = 204.8 -> 205, so 205 * 2^-11.
  EXPECT_EQ(roundTo(0.1, FloatFormat::BF16), 0.10009765625);
  EXPECT_EQ(roundTo(0x1.01p0, FloatFormat::BF16), 1.0);
  EXPECT_EQ(roundTo(0x1.03p0, FloatFormat::BF16), 0x1.04p0);
  EXPECT_EQ(roundTo(3.0e38, FloatFormat::BF16), 0x1.c4p127);
  // The largest bf16 is 0x1.fep127; f32's largest, 0x1.fffffep127, lies
  // above the halfway point 0x1.ffp127 and so overflows.
  EXPECT_EQ(roundTo(0x1.fep127, FloatFormat::BF16), 0x1.fep127);
  EXPECT_EQ(roundTo(0x1.fffffep127, FloatFormat::BF16), kInf);
  EXPECT_EQ(roundTo(0x1p-130, FloatFormat::BF16), 0x1p-130);
  EXPECT_EQ(roundTo(0x1p-134, FloatFormat::BF16), 0.0);
  EXPECT_TRUE(std::isnan(roundTo(kNaN, FloatFormat::BF16)));

  RefTensor x{{3}, {0.1, -0x1.03p0, 1e39}};
  EXPECT_TRUE(matches(cast(x, FloatFormat::BF16), {3},
                      {0.10009765625, -0x1.04p0, kInf}));
}

TEST(ReferenceCast, ToF32) {
  EXPECT_EQ(roundTo(0.1, FloatFormat::F32), 0x1.99999ap-4);
  EXPECT_EQ(roundTo(0x1.000001p0, FloatFormat::F32), 1.0);
  EXPECT_EQ(roundTo(0x1.000003p0, FloatFormat::F32), 0x1.000004p0);
  EXPECT_EQ(roundTo(0x1.fffffe8p127, FloatFormat::F32), 0x1.fffffep127);
  EXPECT_EQ(roundTo(0x1.ffffffp127, FloatFormat::F32), kInf);
  EXPECT_EQ(roundTo(-1e39, FloatFormat::F32), -kInf);
  EXPECT_EQ(roundTo(0x1p-149, FloatFormat::F32), 0x1p-149);
  EXPECT_EQ(roundTo(0x1p-150, FloatFormat::F32), 0.0);
  EXPECT_EQ(roundTo(0.1, FloatFormat::F64), 0.1);
}

} // namespace
