//===- Random.h - The seeded standard-normal input generator ----*- C++ -*-===//
//
// `utac run` and `uta-run` fill graph arguments with standard-normal data
// that must be the same bits on every machine, compiler and C library, so
// that a seed names one input everywhere. The whole algorithm is specified in
// docs/random-inputs.md; in short: xoshiro256** seeded by SplitMix64, one
// xoshiro jump (2^128 steps) per argument index, the Marsaglia polar method,
// and a natural logarithm of the project's own made only of correctly
// rounded IEEE-754 operations (no libm log/sin/cos/exp, whose last bits
// differ between libraries). Random.cpp is compiled with -ffp-contract=off
// so no fused multiply-add changes a rounding.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_RANDOM_H
#define UTA_RUNTIME_CORE_RANDOM_H

#include <array>
#include <cstdint>
#include <span>

namespace uta::runtime {

/// SplitMix64 (Steele, Lea and Flood, 2014): advances `state` by the golden
/// gamma and returns its mixed value.
uint64_t splitMix64(uint64_t &state);

/// xoshiro256** (Blackman and Vigna, 2018), 256 bits of state.
class Xoshiro256StarStar {
public:
  /// The state is four successive splitMix64 outputs from `seed`.
  explicit Xoshiro256StarStar(uint64_t seed);
  explicit Xoshiro256StarStar(const std::array<uint64_t, 4> &state)
      : state(state) {}

  uint64_t next();
  /// Advances by 2^128 steps: streams one jump apart never overlap.
  void jump();
  const std::array<uint64_t, 4> &getState() const { return state; }

private:
  std::array<uint64_t, 4> state;
};

/// The natural logarithm, to within about one ulp, computed with + - * /
/// and frexp only, in a fixed order (docs/random-inputs.md), so it gives the
/// same bits everywhere. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf.
double portableLog(double x);

/// Standard-normal doubles, never zero. Argument i of a graph uses
/// `NormalGenerator(seed, i)`: its own stream, so arguments are independent
/// and adding one does not change the others.
class NormalGenerator {
public:
  explicit NormalGenerator(uint64_t seed, uint64_t stream = 0);

  double next();
  /// Successive values of next(); fill(a) then fill(b) gives the same values
  /// as one fill over a and b together.
  void fill(std::span<double> out);
  /// next() rounded to float32 (nearest even).
  void fill(std::span<float> out);
  /// next() rounded to float32, then to float16 / bfloat16 (both nearest
  /// even), as bit patterns: the values a float32 input file would give.
  void fillHalf(std::span<uint16_t> out);
  void fillBfloat16(std::span<uint16_t> out);

private:
  Xoshiro256StarStar bits;
  double spare = 0;
  bool hasSpare = false;
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_RANDOM_H
