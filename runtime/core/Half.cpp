//===- Half.cpp - float16 and bfloat16 conversions ------------------------===//
//
// Bit-level conversions, so the result does not depend on the compiler's or
// the CPU's support for 16-bit floats.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Half.h"

#include <bit>
#include <cassert>

using namespace uta::runtime;

/// Rounds `value >> shift` to nearest, ties to even (1 <= shift <= 31).
static uint32_t shiftRightRoundEven(uint32_t value, unsigned shift) {
  uint32_t kept = value >> shift;
  uint32_t rest = value & ((uint32_t(1) << shift) - 1);
  uint32_t half = uint32_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  return kept;
}

float uta::runtime::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) // Inf or NaN; the payload moves up unchanged.
    return std::bit_cast<float>(sign | 0x7f800000 | (mantissa << 13));
  if (exponent != 0) // Normal: rebias 15 -> 127.
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) |
                                (mantissa << 13));
  if (mantissa == 0)
    return std::bit_cast<float>(sign);
  // Subnormal half, normal float: shift the leading one into the hidden bit.
  uint32_t floatExponent = 113;
  while (!(mantissa & 0x400)) {
    mantissa <<= 1;
    --floatExponent;
  }
  return std::bit_cast<float>(sign | (floatExponent << 23) |
                              ((mantissa & 0x3ff) << 13));
}

uint16_t uta::runtime::floatToHalf(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) // NaN: keep the top payload bits, force quiet
                              // so a signaling payload cannot become Inf.
    return sign | 0x7e00 | uint16_t((magnitude >> 13) & 0x3ff);
  // 65520 (0x477ff000) is halfway between 65504, the largest half, and 2^16;
  // the tie goes to the even neighbour, which is Inf.
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;
  if (magnitude >= 0x38800000) { // >= 2^-14: a normal half.
    // Rebias the exponent (127 -> 15) and round the 23-bit mantissa to 10
    // bits; a carry out of the mantissa correctly bumps the exponent.
    uint32_t rounded = shiftRightRoundEven(magnitude - (112u << 23), 13);
    return sign | uint16_t(rounded);
  }
  // A half subnormal (or zero): the result counts units of 2^-24.
  uint32_t exponent = magnitude >> 23;
  if (exponent < 102) // Below 2^-25: less than half a unit, rounds to zero.
    return sign;
  uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
  // value = mantissa * 2^(exponent - 150) = (mantissa >> (126 - exponent))
  // units of 2^-24; the shift is 14..24 here.
  return sign | uint16_t(shiftRightRoundEven(mantissa, 126 - exponent));
}

float uta::runtime::bfloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(uint32_t(bits) << 16);
}

uint16_t uta::runtime::floatToBfloat16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffff) > 0x7f800000) // NaN: truncate, force quiet.
    return uint16_t(bits >> 16) | 0x0040;
  // bfloat16 is float32 with 16 fewer mantissa bits, so rounding the low half
  // works uniformly for subnormals, normals and the overflow into Inf.
  return uint16_t(shiftRightRoundEven(bits & 0x7fffffff, 16) |
                  ((bits >> 16) & 0x8000));
}

void uta::runtime::halfToFloat(std::span<const uint16_t> in,
                               std::span<float> out) {
  assert(in.size() == out.size() && "buffers of different sizes");
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = halfToFloat(in[i]);
}

void uta::runtime::floatToHalf(std::span<const float> in,
                               std::span<uint16_t> out) {
  assert(in.size() == out.size() && "buffers of different sizes");
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = floatToHalf(in[i]);
}

void uta::runtime::bfloat16ToFloat(std::span<const uint16_t> in,
                                   std::span<float> out) {
  assert(in.size() == out.size() && "buffers of different sizes");
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = bfloat16ToFloat(in[i]);
}

void uta::runtime::floatToBfloat16(std::span<const float> in,
                                   std::span<uint16_t> out) {
  assert(in.size() == out.size() && "buffers of different sizes");
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = floatToBfloat16(in[i]);
}
