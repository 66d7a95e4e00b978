//===- RandomTest.cpp - Tests of the seeded normal generator --------------===//
//
// The generators' published reference outputs (SplitMix64 from state 0,
// xoshiro256** from state (1, 2, 3, 4), and its jump from (0, 0, 0, 1)) are
// checked literally. The normal outputs are a regression pin of the
// algorithm documented in docs/random-inputs.md: they were printed once from
// this implementation and agreed bit for bit with a separate transcription
// of that page into Python; if they change, every seeded input of every test
// and benchmark changes, so the change must be deliberate and documented.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Random.h"

#include "runtime/core/Half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <vector>

using namespace uta::runtime;

namespace {

std::vector<uint64_t> firstBits(uint64_t seed, uint64_t stream, int count) {
  NormalGenerator generator(seed, stream);
  std::vector<uint64_t> bits;
  for (int i = 0; i < count; ++i)
    bits.push_back(std::bit_cast<uint64_t>(generator.next()));
  return bits;
}

TEST(RandomTest, SplitMix64ReferenceOutputs) {
  uint64_t state = 0;
  EXPECT_EQ(splitMix64(state), 0xe220a8397b1dcdafu);
  EXPECT_EQ(splitMix64(state), 0x6e789e6aa1b965f4u);
  EXPECT_EQ(splitMix64(state), 0x06c45d188009454fu);
  EXPECT_EQ(splitMix64(state), 0xf88bb8a8724c81ecu);
  // Seeding takes those four words as the state.
  EXPECT_EQ(Xoshiro256StarStar(0).getState(),
            (std::array<uint64_t, 4>{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4,
                                     0x06c45d188009454f, 0xf88bb8a8724c81ec}));
}

TEST(RandomTest, XoshiroReferenceOutputs) {
  Xoshiro256StarStar bits(std::array<uint64_t, 4>{1, 2, 3, 4});
  const uint64_t expected[] = {11520u,
                               0u,
                               1509978240u,
                               1215971899390074240u,
                               1216172134540287360u,
                               607988272756665600u};
  for (uint64_t value : expected)
    EXPECT_EQ(bits.next(), value);
}

TEST(RandomTest, XoshiroJumpReference) {
  Xoshiro256StarStar bits(std::array<uint64_t, 4>{0, 0, 0, 1});
  bits.jump();
  EXPECT_EQ(bits.getState(),
            (std::array<uint64_t, 4>{0x934d05e8b2076310, 0xeabdd0bf76a1be51,
                                     0x75dd6a992accb1e8, 0xc660c602a7330187}));
}

TEST(RandomTest, LogSpecialValues) {
  EXPECT_EQ(portableLog(1.0), 0.0);
  // log(2) = hi + lo rounded once: the double nearest to log(2).
  EXPECT_EQ(portableLog(2.0), 0x1.62e42fefa39efp-1);
  EXPECT_EQ(portableLog(0.5), -0x1.62e42fefa39efp-1);
  EXPECT_EQ(portableLog(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(portableLog(-1.0)));
  EXPECT_TRUE(std::isnan(portableLog(std::nan(""))));
  EXPECT_EQ(portableLog(std::numeric_limits<double>::infinity()),
            std::numeric_limits<double>::infinity());
  // Just below 1 the result must not collapse to 0: log(1 - 2^-53) is
  // -2^-53 to within 2^-106.
  EXPECT_EQ(portableLog(1.0 - 0x1p-53), -0x1p-53);
  // The smallest subnormal: -1074 log(2), correctly rounded.
  EXPECT_EQ(portableLog(0x1p-1074), -0x1.74385446d71c3p+9);
}

/// |a - b| in units of the last place of b.
double ulpDistance(double a, long double b) {
  double rounded = double(b);
  double ulp = std::nextafter(std::fabs(rounded),
                              std::numeric_limits<double>::infinity()) -
               std::fabs(rounded);
  return double(std::fabs((long double)a - b)) / ulp;
}

TEST(RandomTest, LogIsWithinOneUlp) {
  // Against the long double logarithm where it is wider than double (x86),
  // else against std::log, whose own error adds up to about half an ulp.
  const bool wide = LDBL_MANT_DIG > DBL_MANT_DIG;
  const double bound = wide ? 1.0 : 1.5;
  uint64_t state = 12345;
  double worstUnit = 0, worstAnywhere = 0;
  for (int i = 0; i < 1000000; ++i) {
    uint64_t draw = splitMix64(state);
    // A double in (0, 1) as the generator produces, and one anywhere in the
    // positive finite range.
    double unit = (double(draw >> 11) + 0.5) * 0x1p-53;
    double anywhere = std::bit_cast<double>(draw >> 1);
    if (anywhere == 0 || std::isinf(anywhere) || std::isnan(anywhere))
      continue;
    for (auto [x, worst] :
         {std::pair{unit, &worstUnit}, std::pair{anywhere, &worstAnywhere}}) {
      long double reference =
          wide ? std::log((long double)x) : (long double)std::log(x);
      if (reference == 0)
        continue;
      *worst = std::max(*worst, ulpDistance(portableLog(x), reference));
    }
  }
  EXPECT_LE(worstUnit, bound);
  EXPECT_LE(worstAnywhere, bound);
}

TEST(RandomTest, PinnedOutputsOfSeed0And42) {
  EXPECT_EQ(firstBits(0, 0, 6),
            (std::vector<uint64_t>{0x3fe323a82a4bc9e5, 0x3ff76a54f2c0effa,
                                   0xbfeca445408b789c, 0xbfc81270d2ddbad6,
                                   0xc003532999190f0a, 0x3ff1b72138aac960}));
  EXPECT_EQ(firstBits(42, 0, 6),
            (std::vector<uint64_t>{0xbfe73d2feb0fb377, 0xbfcb088028693f9c,
                                   0x3fcc5e21f7812a4c, 0x3fe0ba8bb0c5fa51,
                                   0x3fddb514bfac5b4e, 0x3fe7b6195d5a3e23}));
  // The second and third arguments of seed 0.
  EXPECT_EQ(firstBits(0, 1, 3),
            (std::vector<uint64_t>{0xbff26a2f0dc157e8, 0xbfe469c113a6437c,
                                   0xbff11f3ad06aa135}));
  EXPECT_EQ(firstBits(0, 2, 3),
            (std::vector<uint64_t>{0x3ffe3e9fae7b27ad, 0x3fec23028ab68027,
                                   0x3fe8484066a4c949}));
  // Seed 0, first value: 0x3fe323a82a4bc9e5 is 0.5981026483626094.
  EXPECT_EQ(NormalGenerator(0).next(), 0.5981026483626094);
}

TEST(RandomTest, PinnedHashOfALongFloat32Run) {
  // 100000 float32 values of seed 7, stream 3, folded as h = h * 31 + bits
  // (mod 2^64); the same fold over the Python transcription's values.
  NormalGenerator generator(7, 3);
  std::vector<float> values(100000);
  generator.fill(values);
  uint64_t hash = 0;
  for (float value : values)
    hash = hash * 31 + std::bit_cast<uint32_t>(value);
  EXPECT_EQ(hash, 0x4479f4f16decab93u);
}

TEST(RandomTest, StandardNormalStatistics) {
  NormalGenerator generator(2024);
  const int n = 1000000;
  double sum = 0, sumSquares = 0, sumFourth = 0;
  int zeros = 0, withinOne = 0, nonFinite = 0;
  for (int i = 0; i < n; ++i) {
    double x = generator.next();
    zeros += x == 0;
    nonFinite += !std::isfinite(x);
    withinOne += std::fabs(x) < 1;
    sum += x;
    sumSquares += x * x;
    sumFourth += x * x * x * x;
  }
  double mean = sum / n;
  double variance = sumSquares / n - mean * mean;
  EXPECT_EQ(zeros, 0);
  EXPECT_EQ(nonFinite, 0);
  // Bounds of about five standard errors: 1/sqrt(n) for the mean,
  // sqrt(2/n) for the variance, sqrt(96/n) for the fourth moment (3).
  EXPECT_LT(std::fabs(mean), 0.005);
  EXPECT_LT(std::fabs(variance - 1), 0.007);
  EXPECT_LT(std::fabs(sumFourth / n - 3), 0.05);
  // P(|x| < 1) = 0.682689...; its standard error is 0.00047.
  EXPECT_NEAR(double(withinOne) / n, 0.682689, 0.0025);
}

TEST(RandomTest, SeedsAndStreamsDiffer) {
  std::set<std::vector<uint64_t>> seen;
  for (uint64_t seed : {0u, 1u, 2u, 42u, 0xffffffffu})
    for (uint64_t stream = 0; stream < 4; ++stream)
      EXPECT_TRUE(seen.insert(firstBits(seed, stream, 4)).second)
          << "seed " << seed << " stream " << stream;
  // Neighbouring streams are uncorrelated.
  NormalGenerator a(5, 0), b(5, 1);
  double dot = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i)
    dot += a.next() * b.next();
  EXPECT_LT(std::fabs(dot / n), 5 / std::sqrt(double(n)));
}

TEST(RandomTest, StreamIsTheJumpedSeed) {
  // Stream k of a seed starts from the seed's xoshiro state jumped k times,
  // whatever other streams were used: adding an argument changes nothing
  // before it.
  Xoshiro256StarStar bits(99);
  bits.jump();
  bits.jump();
  NormalGenerator viaStream(99, 2);
  // The first uniform pair decides the first output; compare the raw draws
  // by rebuilding them from the same state.
  Xoshiro256StarStar copy = bits;
  double v1 = double(copy.next() >> 11) * 0x1p-52 - 1.0;
  double v2 = double(copy.next() >> 11) * 0x1p-52 - 1.0;
  ASSERT_LT(v1 * v1 + v2 * v2, 1) << "pick a seed whose first pair is kept";
  // The pair is accepted, so the outputs are v1 and v2 scaled by one factor.
  double first = viaStream.next();
  double second = viaStream.next();
  EXPECT_EQ(std::signbit(first), std::signbit(v1));
  EXPECT_EQ(std::signbit(second), std::signbit(v2));
  EXPECT_NEAR(first / second, v1 / v2, 1e-12 * std::fabs(v1 / v2));
  std::vector<float> small(3), large(1000), after(5), afterToo(5);
  NormalGenerator(99, 0).fill(small);
  NormalGenerator(99, 1).fill(after);
  NormalGenerator(99, 0).fill(large);
  NormalGenerator(99, 1).fill(afterToo);
  EXPECT_EQ(after, afterToo);
}

TEST(RandomTest, FillsAreSuccessiveRoundedValues) {
  std::vector<double> doubles(11);
  NormalGenerator(3).fill(doubles);

  // Split fills continue where the last one stopped, including the held
  // second value of a pair.
  NormalGenerator split(3);
  std::vector<double> first(3), rest(8);
  split.fill(first);
  split.fill(rest);
  first.insert(first.end(), rest.begin(), rest.end());
  EXPECT_EQ(first, doubles);

  std::vector<float> floats(11);
  NormalGenerator(3).fill(floats);
  std::vector<uint16_t> halves(11), bfloats(11);
  NormalGenerator(3).fillHalf(halves);
  NormalGenerator(3).fillBfloat16(bfloats);
  for (size_t i = 0; i < doubles.size(); ++i) {
    EXPECT_EQ(floats[i], static_cast<float>(doubles[i]));
    EXPECT_EQ(halves[i], floatToHalf(floats[i]));
    EXPECT_EQ(bfloats[i], floatToBfloat16(floats[i]));
    EXPECT_NE(floats[i], 0.0f);
  }
}

} // namespace
