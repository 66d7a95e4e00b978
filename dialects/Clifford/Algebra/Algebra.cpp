//===- Algebra.cpp - Clifford algebras Cl(p,q,r) with n <= 6 --------------===//
//
// Builds the blade order, Cayley table and path list of one signature. Blades
// are bit masks internally (bit i = basis vector i); the public blade index is
// the position in the dialect's blade order (by grade, then lexicographic).
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/Algebra/Algebra.h"

#include <algorithm>
#include <bit>

using namespace uta::ga;

std::optional<Algebra> Algebra::get(unsigned p, unsigned q, unsigned r) {
  unsigned n = p + q + r;
  if (n < 1 || n > kMaxDimension)
    return std::nullopt;
  return Algebra(p, q, r);
}

/// Sign of reordering the product of ascending blades `a` and `b` into
/// ascending order: one transposition per pair (i in a, j in b) with i > j.
static int reorderingSign(uint32_t a, uint32_t b) {
  unsigned swaps = 0;
  for (uint32_t rest = b; rest; rest &= rest - 1) {
    unsigned j = std::countr_zero(rest);
    swaps += std::popcount(a >> (j + 1));
  }
  return swaps % 2 ? -1 : 1;
}

Algebra::Algebra(unsigned p, unsigned q, unsigned r) : p_(p), q_(q), r_(r) {
  unsigned n = dimension(), blades = numBlades();

  // Blade order: by grade, then by the ascending index list, lexicographically.
  bladeMasks_.resize(blades);
  for (uint32_t mask = 0; mask < blades; ++mask)
    bladeMasks_[mask] = mask;
  auto indexListLess = [](uint32_t a, uint32_t b) {
    // Irreflexive, and keeps countr_zero(0) = 32 out of the shift below.
    if (a == b)
      return false;
    if (std::popcount(a) != std::popcount(b))
      return std::popcount(a) < std::popcount(b);
    // Same grade: the first differing index decides; the lower index first.
    uint32_t differ = a ^ b;
    return ((a >> std::countr_zero(differ)) & 1) != 0;
  };
  std::sort(bladeMasks_.begin(), bladeMasks_.end(), indexListLess);

  bladeOfMask_.resize(blades);
  bladesByGrade_.resize(n + 1);
  for (unsigned blade = 0; blade < blades; ++blade) {
    bladeOfMask_[bladeMasks_[blade]] = blade;
    bladesByGrade_[grade(blade)].push_back(blade);
  }

  cayley_.resize(blades * blades);
  for (unsigned a = 0; a < blades; ++a) {
    for (unsigned b = 0; b < blades; ++b) {
      uint32_t maskA = bladeMasks_[a], maskB = bladeMasks_[b];
      int sign = reorderingSign(maskA, maskB);
      for (uint32_t shared = maskA & maskB; shared; shared &= shared - 1)
        sign *= metric(std::countr_zero(shared));
      cayley_[a * blades + b] = {sign, bladeOfMask_[maskA ^ maskB]};
    }
  }

  // Paths in lexicographic (gx, gz, gy) order.
  for (unsigned gx = 0; gx <= n; ++gx) {
    for (unsigned gz = 0; gz <= n; ++gz) {
      for (unsigned gy = 0; gy <= n; ++gy) {
        bool reached = false;
        for (unsigned a : bladesOfGrade(gx)) {
          for (unsigned b : bladesOfGrade(gy)) {
            BladeProduct prod = product(a, b);
            reached |= prod.sign != 0 && grade(prod.blade) == gz;
          }
        }
        if (reached)
          paths_.push_back({gx, gz, gy});
      }
    }
  }

  for (unsigned blade = 0; blade < blades; ++blade)
    for (unsigned path = 0; path < paths_.size(); ++path) {
      const Path &grades = paths_[path];
      if (grade(blade) != grades.gz)
        continue;
      // Some x blade of grade gx times a y blade of grade gy lands on it.
      bool reached = false;
      for (unsigned a : bladesOfGrade(grades.gx))
        for (unsigned b : bladesOfGrade(grades.gy)) {
          BladeProduct prod = product(a, b);
          reached |= prod.sign != 0 && prod.blade == blade;
        }
      if (reached)
        pathGroups_.push_back({blade, path});
    }
}

int Algebra::metric(unsigned basisVector) const {
  if (basisVector < r_)
    return 0;
  return basisVector < r_ + p_ ? 1 : -1;
}

unsigned Algebra::grade(unsigned blade) const {
  return std::popcount(bladeMasks_[blade]);
}

std::string Algebra::bladeName(unsigned blade) const {
  uint32_t mask = bladeMasks_[blade];
  if (mask == 0)
    return "1";
  std::string name = "e";
  unsigned first = isDegenerate() ? 0 : 1;
  for (unsigned i = 0; i < dimension(); ++i)
    if (mask & (1u << i))
      name += char('0' + first + i);
  return name;
}

int Algebra::reverseSign(unsigned blade) const {
  unsigned k = grade(blade);
  return (k * (k - 1) / 2) % 2 ? -1 : 1;
}

int Algebra::gradeInvolutionSign(unsigned blade) const {
  return grade(blade) % 2 ? -1 : 1;
}

int Algebra::conjugateSign(unsigned blade) const {
  return reverseSign(blade) * gradeInvolutionSign(blade);
}

int Algebra::pseudoscalarNormSign() const {
  unsigned pseudoscalar = numBlades() - 1;
  return reverseSign(pseudoscalar) * product(pseudoscalar, pseudoscalar).sign;
}

std::optional<BladeProduct> Algebra::dualOf(unsigned blade) const {
  if (isDegenerate())
    return std::nullopt;
  // I^-1 = reverse(I) / (I reverse(I)) = norm * reverseSign(I) * I.
  unsigned pseudoscalar = numBlades() - 1;
  BladeProduct prod = product(blade, pseudoscalar);
  prod.sign *= pseudoscalarNormSign() * reverseSign(pseudoscalar);
  return prod;
}

std::optional<unsigned> Algebra::pathIndex(unsigned gx, unsigned gz,
                                           unsigned gy) const {
  auto it = std::find(paths_.begin(), paths_.end(), Path{gx, gz, gy});
  if (it == paths_.end())
    return std::nullopt;
  return static_cast<unsigned>(it - paths_.begin());
}

std::optional<unsigned> Algebra::pathGroupIndex(unsigned blade,
                                                unsigned path) const {
  auto it =
      std::find(pathGroups_.begin(), pathGroups_.end(), PathGroup{blade, path});
  if (it == pathGroups_.end())
    return std::nullopt;
  return static_cast<unsigned>(it - pathGroups_.begin());
}
