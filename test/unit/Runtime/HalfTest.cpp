//===- HalfTest.cpp - Tests of the f16 and bf16 conversions ---------------===//
//
// Widening is checked against the definition of the formats, evaluated with
// std::ldexp in double; narrowing against a nearest-even search over the
// representable values, and against hand-picked bit patterns (ties, overflow,
// subnormals, NaNs) whose expected results were worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Half.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace uta::runtime;

namespace {

uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value); }
float floatOf(uint32_t bits) { return std::bit_cast<float>(bits); }

/// The value of a binary16 pattern from its definition (1 sign, 5 exponent
/// bits of bias 15, 10 mantissa bits); NaN for every NaN pattern.
double halfValueByDefinition(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0)
    return sign * std::ldexp(double(mantissa), -24);
  return sign * std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
}

/// Round-to-nearest-even into binary16 by search over the representable
/// magnitudes (0x0000..0x7bff, increasing with the bit pattern).
uint16_t halfByNearestEvenSearch(float value) {
  static const std::vector<double> magnitudes = [] {
    std::vector<double> table;
    for (uint32_t bits = 0; bits <= 0x7bff; ++bits)
      table.push_back(halfValueByDefinition(uint16_t(bits)));
    return table;
  }();
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  double x = std::fabs(double(value));
  // 2^16 stands for the next value after 65504, where Inf takes its place.
  auto upper = std::upper_bound(magnitudes.begin(), magnitudes.end(), x);
  size_t below = size_t(upper - magnitudes.begin()) - 1;
  if (magnitudes[below] == x)
    return sign | uint16_t(below);
  double low = magnitudes[below];
  double high = below + 1 < magnitudes.size() ? magnitudes[below + 1] : 65536.0;
  size_t pick;
  if (x - low < high - x)
    pick = below;
  else if (x - low > high - x)
    pick = below + 1;
  else
    pick = (below % 2 == 0) ? below : below + 1;
  return sign | uint16_t(pick); // 0x7c00 (Inf) when pick == 0x7c00.
}

/// Round-to-nearest-even into bfloat16 by comparing the two neighbours.
uint16_t bfloat16ByNearestEven(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  uint32_t below = magnitude >> 16;
  double x = std::fabs(double(value));
  double low = double(floatOf(below << 16));
  double high = below + 1 == 0x7f80 ? std::ldexp(1.0, 128)
                                    : double(floatOf((below + 1) << 16));
  if (x == low)
    return sign | uint16_t(below);
  if (x - low < high - x)
    return sign | uint16_t(below);
  if (x - low > high - x)
    return sign | uint16_t(below + 1);
  return sign | uint16_t(below % 2 == 0 ? below : below + 1);
}

bool isHalfNaN(uint16_t bits) {
  return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
}

TEST(HalfTest, WideningMatchesTheDefinitionForAllPatterns) {
  for (uint32_t i = 0; i < 65536; ++i) {
    uint16_t bits = uint16_t(i);
    double expected = halfValueByDefinition(bits);
    float widened = halfToFloat(bits);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(widened)) << std::hex << i;
      continue;
    }
    EXPECT_EQ(double(widened), expected) << std::hex << i;
    EXPECT_EQ(std::signbit(widened), bool(bits & 0x8000)) << std::hex << i;
  }
}

TEST(HalfTest, RoundTripOfAll65536Patterns) {
  for (uint32_t i = 0; i < 65536; ++i) {
    uint16_t bits = uint16_t(i);
    uint16_t back = floatToHalf(halfToFloat(bits));
    if (isHalfNaN(bits)) {
      EXPECT_TRUE(isHalfNaN(back)) << std::hex << i << " -> " << back;
      EXPECT_EQ(back & 0x8000, bits & 0x8000) << std::hex << i;
      continue;
    }
    EXPECT_EQ(back, bits) << std::hex << i;
  }
}

TEST(HalfTest, WideningLiterals) {
  EXPECT_EQ(bitsOf(halfToFloat(0x3c00)), 0x3f800000u); // 1.0
  EXPECT_EQ(bitsOf(halfToFloat(0xc000)), 0xc0000000u); // -2.0
  EXPECT_EQ(bitsOf(halfToFloat(0x7bff)), 0x477fe000u); // 65504
  EXPECT_EQ(bitsOf(halfToFloat(0x0400)), 0x38800000u); // 2^-14
  EXPECT_EQ(bitsOf(halfToFloat(0x0001)), 0x33800000u); // 2^-24
  EXPECT_EQ(bitsOf(halfToFloat(0x03ff)), 0x387fc000u); // 1023 * 2^-24
  EXPECT_EQ(bitsOf(halfToFloat(0x8000)), 0x80000000u); // -0
  EXPECT_EQ(bitsOf(halfToFloat(0x7c00)), 0x7f800000u); // Inf
  EXPECT_EQ(bitsOf(halfToFloat(0xfc00)), 0xff800000u); // -Inf
  EXPECT_EQ(bitsOf(halfToFloat(0x7e00)), 0x7fc00000u); // quiet NaN
}

TEST(HalfTest, NarrowingTiesGoToEven) {
  // 1 + 2^-11: halfway between 1 (0x3c00) and 1 + 2^-10 (0x3c01).
  EXPECT_EQ(floatToHalf(floatOf(0x3f801000)), 0x3c00);
  // 1 + 3 * 2^-11: halfway between 0x3c01 and 0x3c02.
  EXPECT_EQ(floatToHalf(floatOf(0x3f803000)), 0x3c02);
  // One float ulp either side of the first tie.
  EXPECT_EQ(floatToHalf(floatOf(0x3f801001)), 0x3c01);
  EXPECT_EQ(floatToHalf(floatOf(0x3f800fff)), 0x3c00);
  // -(1 + 3 * 2^-11).
  EXPECT_EQ(floatToHalf(floatOf(0xbf803000)), 0xbc02);
  // 2049 (0x45001000) lies between 2048 (0x6800) and 2050 (0x6801).
  EXPECT_EQ(floatToHalf(floatOf(0x45001000)), 0x6800);
  // 2051 lies between 2050 (0x6801) and 2052 (0x6802).
  EXPECT_EQ(floatToHalf(floatOf(0x45003000)), 0x6802);
  // A carry out of the mantissa: 2 - 2^-11 is halfway between
  // 2 - 2^-10 (0x3bff, odd) and 2 (0x4000).
  EXPECT_EQ(floatToHalf(floatOf(0x3ffff000)), 0x4000);
}

TEST(HalfTest, NarrowingOverflow) {
  EXPECT_EQ(floatToHalf(floatOf(0x477fe000)), 0x7bff); // 65504
  EXPECT_EQ(floatToHalf(floatOf(0x477fefff)), 0x7bff); // just below 65520
  EXPECT_EQ(floatToHalf(floatOf(0x477ff000)), 0x7c00); // 65520: tie -> Inf
  EXPECT_EQ(floatToHalf(floatOf(0xc77ff000)), 0xfc00); // -65520
  EXPECT_EQ(floatToHalf(floatOf(0x47800000)), 0x7c00); // 65536
  EXPECT_EQ(floatToHalf(floatOf(0x7f7fffff)), 0x7c00); // FLT_MAX
  EXPECT_EQ(floatToHalf(floatOf(0x7f800000)), 0x7c00); // Inf
  EXPECT_EQ(floatToHalf(floatOf(0xff800000)), 0xfc00); // -Inf
}

TEST(HalfTest, NarrowingSubnormals) {
  EXPECT_EQ(floatToHalf(floatOf(0x33800000)), 0x0001); // 2^-24
  EXPECT_EQ(floatToHalf(floatOf(0x33000000)), 0x0000); // 2^-25: tie -> 0
  EXPECT_EQ(floatToHalf(floatOf(0xb3000000)), 0x8000); // -2^-25 -> -0
  EXPECT_EQ(floatToHalf(floatOf(0x33000001)), 0x0001); // just above 2^-25
  EXPECT_EQ(floatToHalf(floatOf(0x32ffffff)), 0x0000); // just below 2^-25
  EXPECT_EQ(floatToHalf(floatOf(0x33c00000)), 0x0002); // 1.5 * 2^-24: tie
  EXPECT_EQ(floatToHalf(floatOf(0x34200000)), 0x0002); // 2.5 * 2^-24: tie
  EXPECT_EQ(floatToHalf(floatOf(0x387fc000)), 0x03ff); // largest subnormal
  // 1023.5 * 2^-24: tie between 0x03ff (odd) and 2^-14 (0x0400).
  EXPECT_EQ(floatToHalf(floatOf(0x387fe000)), 0x0400);
  EXPECT_EQ(floatToHalf(floatOf(0x38800000)), 0x0400); // 2^-14
  EXPECT_EQ(floatToHalf(floatOf(0x00000001)), 0x0000); // float subnormal
  EXPECT_EQ(floatToHalf(floatOf(0x80000000)), 0x8000); // -0
}

TEST(HalfTest, NarrowingNaNsStayNaN) {
  EXPECT_EQ(floatToHalf(floatOf(0x7fc00000)), 0x7e00);
  EXPECT_EQ(floatToHalf(floatOf(0xffc00000)), 0xfe00);
  // A signaling NaN whose payload lives only in the low bits must not
  // truncate to Inf.
  EXPECT_EQ(floatToHalf(floatOf(0x7f800001)), 0x7e00);
  EXPECT_EQ(floatToHalf(floatOf(0x7fffffff)), 0x7fff);
}

TEST(HalfTest, NarrowingMatchesNearestEvenSearch) {
  // Every pattern of the top 19 bits, each with the low 13 bits (those that
  // normal halves drop) set to the values around the halfway point.
  const uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff};
  for (uint32_t high = 0; high < (1u << 19); ++high) {
    for (uint32_t low : lows) {
      float value = floatOf((high << 13) | low);
      if (std::isnan(value))
        continue;
      ASSERT_EQ(floatToHalf(value), halfByNearestEvenSearch(value))
          << std::hex << bitsOf(value);
    }
  }
  std::mt19937 random(7);
  for (int i = 0; i < 1000000; ++i) {
    float value = floatOf(uint32_t(random()));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(floatToHalf(value), halfByNearestEvenSearch(value))
        << std::hex << bitsOf(value);
  }
}

TEST(Bfloat16Test, WideningIsTheTopHalf) {
  EXPECT_EQ(bitsOf(bfloat16ToFloat(0x3f80)), 0x3f800000u);
  EXPECT_EQ(bitsOf(bfloat16ToFloat(0xc049)), 0xc0490000u);
  EXPECT_EQ(bitsOf(bfloat16ToFloat(0x0001)), 0x00010000u);
  EXPECT_EQ(bitsOf(bfloat16ToFloat(0xff80)), 0xff800000u);
  for (uint32_t i = 0; i < 65536; ++i) {
    uint16_t bits = uint16_t(i);
    uint16_t back = floatToBfloat16(bfloat16ToFloat(bits));
    if ((bits & 0x7f80) == 0x7f80 && (bits & 0x7f)) {
      EXPECT_TRUE((back & 0x7f80) == 0x7f80 && (back & 0x7f)) << std::hex << i;
      continue;
    }
    EXPECT_EQ(back, bits) << std::hex << i;
  }
}

TEST(Bfloat16Test, NarrowingLiterals) {
  // 1 + 2^-8: halfway between 1 (0x3f80) and 1 + 2^-7 (0x3f81).
  EXPECT_EQ(floatToBfloat16(floatOf(0x3f808000)), 0x3f80);
  // 1 + 3 * 2^-8: halfway between 0x3f81 and 0x3f82.
  EXPECT_EQ(floatToBfloat16(floatOf(0x3f818000)), 0x3f82);
  EXPECT_EQ(floatToBfloat16(floatOf(0x3f808001)), 0x3f81);
  EXPECT_EQ(floatToBfloat16(floatOf(0x3f807fff)), 0x3f80);
  EXPECT_EQ(floatToBfloat16(floatOf(0xbf818000)), 0xbf82);
  // Overflow: halfway above the largest finite bfloat16 (0x7f7f, odd).
  EXPECT_EQ(floatToBfloat16(floatOf(0x7f7f7fff)), 0x7f7f);
  EXPECT_EQ(floatToBfloat16(floatOf(0x7f7f8000)), 0x7f80);
  EXPECT_EQ(floatToBfloat16(floatOf(0x7f7fffff)), 0x7f80);
  EXPECT_EQ(floatToBfloat16(floatOf(0xff7fffff)), 0xff80);
  EXPECT_EQ(floatToBfloat16(floatOf(0x7f800000)), 0x7f80);
  // Subnormals.
  EXPECT_EQ(floatToBfloat16(floatOf(0x00008000)), 0x0000); // tie -> 0
  EXPECT_EQ(floatToBfloat16(floatOf(0x00008001)), 0x0001);
  EXPECT_EQ(floatToBfloat16(floatOf(0x00018000)), 0x0002); // tie -> even
  EXPECT_EQ(floatToBfloat16(floatOf(0x007fffff)), 0x0080); // -> 2^-126
  EXPECT_EQ(floatToBfloat16(floatOf(0x80008000)), 0x8000);
  // NaNs stay NaN, including payloads only in the dropped bits.
  EXPECT_EQ(floatToBfloat16(floatOf(0x7fc00000)), 0x7fc0);
  EXPECT_EQ(floatToBfloat16(floatOf(0x7f800001)), 0x7fc0);
  EXPECT_EQ(floatToBfloat16(floatOf(0xff800001)), 0xffc0);
}

TEST(Bfloat16Test, NarrowingMatchesNearestEven) {
  const uint32_t lows[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t high = 0; high < 65536; ++high) {
    for (uint32_t low : lows) {
      float value = floatOf((high << 16) | low);
      if (std::isnan(value))
        continue;
      ASSERT_EQ(floatToBfloat16(value), bfloat16ByNearestEven(value))
          << std::hex << bitsOf(value);
    }
  }
  std::mt19937 random(11);
  for (int i = 0; i < 1000000; ++i) {
    float value = floatOf(uint32_t(random()));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(floatToBfloat16(value), bfloat16ByNearestEven(value))
        << std::hex << bitsOf(value);
  }
}

TEST(HalfTest, SpanConversions) {
  std::vector<float> in = {1.0f, -2.0f, 65520.0f, floatOf(0x3f801000)};
  std::vector<uint16_t> half(in.size()), bf(in.size());
  floatToHalf(in, half);
  floatToBfloat16(in, bf);
  EXPECT_EQ(half, (std::vector<uint16_t>{0x3c00, 0xc000, 0x7c00, 0x3c00}));
  EXPECT_EQ(bf, (std::vector<uint16_t>{0x3f80, 0xc000, 0x4780, 0x3f80}));
  std::vector<float> back(in.size());
  halfToFloat(half, back);
  EXPECT_EQ(back[1], -2.0f);
  EXPECT_TRUE(std::isinf(back[2]));
  bfloat16ToFloat(bf, back);
  EXPECT_EQ(back[2], 65536.0f);
}

} // namespace
