//===- Half.h - float16 and bfloat16 conversions ----------------*- C++ -*-===//
//
// The runtime moves f16 and bf16 tensors as raw 16-bit patterns: arguments are
// produced from float32 data (seeded inputs, float32 .npy files) and results
// are widened to float32 for --save and --check. These conversions are exact
// in the widening direction; narrowing rounds to nearest, ties to even, turns
// too-large values into infinities, produces subnormals where the value needs
// them, and keeps NaNs NaN (quieted, sign kept).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_HALF_H
#define UTA_RUNTIME_CORE_HALF_H

#include <cstdint>
#include <span>

namespace uta::runtime {

/// IEEE binary16 bits -> float32, exact.
float halfToFloat(uint16_t bits);
/// float32 -> IEEE binary16 bits, round to nearest even.
uint16_t floatToHalf(float value);

/// bfloat16 bits (the top half of a float32) -> float32, exact.
float bfloat16ToFloat(uint16_t bits);
/// float32 -> bfloat16 bits, round to nearest even.
uint16_t floatToBfloat16(float value);

/// Element-wise versions over buffers of equal size.
void halfToFloat(std::span<const uint16_t> in, std::span<float> out);
void floatToHalf(std::span<const float> in, std::span<uint16_t> out);
void bfloat16ToFloat(std::span<const uint16_t> in, std::span<float> out);
void floatToBfloat16(std::span<const float> in, std::span<uint16_t> out);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_HALF_H
