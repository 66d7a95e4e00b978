//===- Random.cpp - The seeded standard-normal input generator ------------===//
//
// Every floating-point operation here is a correctly rounded IEEE-754 double
// operation (+ - * / sqrt) or an exact one (integer to double conversion of
// values below 2^53, frexp), written in the order docs/random-inputs.md
// gives. The file is compiled with -ffp-contract=off; the static_assert below
// rules out excess precision (x87).
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Random.h"

#include "runtime/core/Half.h"

#include <cfloat>
#include <cmath>
#include <limits>

using namespace uta::runtime;

static_assert(FLT_EVAL_METHOD == 0,
              "double expressions must be evaluated in double precision");
static_assert(std::numeric_limits<double>::is_iec559,
              "the generator needs IEEE-754 doubles");

uint64_t uta::runtime::splitMix64(uint64_t &state) {
  state += 0x9e3779b97f4a7c15;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

static uint64_t rotateLeft(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

Xoshiro256StarStar::Xoshiro256StarStar(uint64_t seed) {
  for (uint64_t &word : state)
    word = splitMix64(seed);
}

uint64_t Xoshiro256StarStar::next() {
  uint64_t result = rotateLeft(state[1] * 5, 7) * 9;
  uint64_t shifted = state[1] << 17;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= shifted;
  state[3] = rotateLeft(state[3], 45);
  return result;
}

void Xoshiro256StarStar::jump() {
  // The coefficients of the jump polynomial for 2^128 steps, from the
  // generator's authors.
  static constexpr uint64_t kJump[] = {0x180ec6d33cfd0aba, 0xd5a61266f0c9392c,
                                       0xa9582618e03fc9aa, 0x39abdc4529b1661c};
  std::array<uint64_t, 4> sum = {0, 0, 0, 0};
  for (uint64_t word : kJump) {
    for (int bit = 0; bit < 64; ++bit) {
      if (word & (uint64_t(1) << bit))
        for (int i = 0; i < 4; ++i)
          sum[i] ^= state[i];
      next();
    }
  }
  state = sum;
}

double uta::runtime::portableLog(double x) {
  if (std::isnan(x) || x < 0)
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 0)
    return -std::numeric_limits<double>::infinity();
  if (std::isinf(x))
    return x;

  // x = m * 2^k with m in [sqrt(1/2), sqrt(2)), so that f = m - 1 is small:
  // |f| < 0.415 and |s| < 0.172 below.
  int k;
  double m = std::frexp(x, &k); // m in [0.5, 1), exact.
  if (m < 0x1.6a09e667f3bcdp-1) {
    m = m * 2.0; // exact
    k = k - 1;
  }
  double f = m - 1.0; // exact (Sterbenz)

  // log(1 + f) = 2 atanh(s) with s = f / (2 + f)
  //            = 2s + s * R,  R = sum over j >= 1 of 2 z^j / (2j + 1),
  // z = s^2 <= 0.0295, so ten terms leave a relative error below 2^-55.
  // With hfsq = f^2 / 2, 2s = f - hfsq + s * hfsq, which keeps the large
  // part f exact: log(1 + f) = f - (hfsq - s * (hfsq + R)).
  double s = f / (2.0 + f);
  double z = s * s;
  double r = 0x1.8618618618618p-4;  // 2/21
  r = 0x1.af286bca1af28p-4 + z * r; // 2/19
  r = 0x1.e1e1e1e1e1e1ep-4 + z * r; // 2/17
  r = 0x1.1111111111111p-3 + z * r; // 2/15
  r = 0x1.3b13b13b13b14p-3 + z * r; // 2/13
  r = 0x1.745d1745d1746p-3 + z * r; // 2/11
  r = 0x1.c71c71c71c71cp-3 + z * r; // 2/9
  r = 0x1.2492492492492p-2 + z * r; // 2/7
  r = 0x1.999999999999ap-2 + z * r; // 2/5
  r = 0x1.5555555555555p-1 + z * r; // 2/3
  r = z * r;
  double hfsq = 0.5 * f * f;

  // log(x) = k * log(2) + log(1 + f), with log(2) split as hi + lo where hi
  // has 29 significant bits, so k * hi is exact.
  double kd = double(k);
  double correction = s * (hfsq + r) + kd * -0x1.718432a1b0e26p-35; // lo
  return kd * 0x1.62e42ff000000p-1 + (f - (hfsq - correction));     // hi
}

/// The first xoshiro stream of `seed`, jumped `stream` times.
static Xoshiro256StarStar makeStream(uint64_t seed, uint64_t stream) {
  Xoshiro256StarStar bits(seed);
  for (uint64_t i = 0; i < stream; ++i)
    bits.jump();
  return bits;
}

NormalGenerator::NormalGenerator(uint64_t seed, uint64_t stream)
    : bits(makeStream(seed, stream)) {}

/// A uniform double on the grid {-1, -1 + 2^-52, ..., 1 - 2^-52}, from the
/// top 53 bits of a draw. Both operations are exact.
static double uniformSigned(uint64_t draw) {
  return double(draw >> 11) * 0x1p-52 - 1.0;
}

double NormalGenerator::next() {
  if (hasSpare) {
    hasSpare = false;
    return spare;
  }
  // Marsaglia's polar method: a point uniform in the unit disc (zero
  // coordinates rejected too, so no output is zero) gives two independent
  // normals.
  for (;;) {
    double v1 = uniformSigned(bits.next());
    double v2 = uniformSigned(bits.next());
    if (v1 == 0.0 || v2 == 0.0)
      continue;
    double s = v1 * v1 + v2 * v2;
    if (s >= 1.0)
      continue;
    double t = -2.0 * portableLog(s);
    double factor = std::sqrt(t / s);
    spare = v2 * factor;
    hasSpare = true;
    return v1 * factor;
  }
}

void NormalGenerator::fill(std::span<double> out) {
  for (double &value : out)
    value = next();
}

void NormalGenerator::fill(std::span<float> out) {
  for (float &value : out)
    value = static_cast<float>(next());
}

void NormalGenerator::fillHalf(std::span<uint16_t> out) {
  for (uint16_t &value : out)
    value = floatToHalf(static_cast<float>(next()));
}

void NormalGenerator::fillBfloat16(std::span<uint16_t> out) {
  for (uint16_t &value : out)
    value = floatToBfloat16(static_cast<float>(next()));
}
