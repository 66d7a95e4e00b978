//===- Algebra.h - Clifford algebras Cl(p,q,r) with n <= 6 ------*- C++ -*-===//
//
// The algebra library behind the clifford dialect's verifiers, the reference
// interpreter and the lowering: blade order and signs, the metric, the Cayley
// table, grades, involutions and the path list of weighted_product and
// fc_product. Plain C++ (no MLIR or LLVM), so every layer may use it.
//
// Conventions of the clifford dialect (docs/dialects/CliffordDialect.md):
// n = p + q + r basis vectors; the first r square to 0, the next p to +1, the
// last q to -1. Blades are ordered by grade, then lexicographically by their
// ascending basis-vector indices; a blade's sign is that of its ascending
// product (e13 = e1 e3).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_CLIFFORD_ALGEBRA_ALGEBRA_H
#define UTA_DIALECTS_CLIFFORD_ALGEBRA_ALGEBRA_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace uta::ga {

/// The largest number of basis vectors UTA supports.
inline constexpr unsigned kMaxDimension = 6;

/// One entry of the Cayley table: blade(a) * blade(b) = sign * blade(result).
/// `sign` is 0 when the product vanishes (a shared null basis vector).
struct BladeProduct {
  int sign = 0;
  unsigned blade = 0;
};

/// A path of the weighted and fully connected products: a grade-`gx` blade
/// times a grade-`gy` blade has a non-zero grade-`gz` part.
struct Path {
  unsigned gx = 0, gz = 0, gy = 0;
  friend bool operator==(const Path &, const Path &) = default;
};

/// A result blade and a path on which some non-zero geometric-product term
/// lands: fc_product's pair products of one group share a weight matrix and
/// a result blade, so its gradients run one GEMM per group.
struct PathGroup {
  unsigned blade = 0, path = 0;
  friend bool operator==(const PathGroup &, const PathGroup &) = default;
};

/// A Clifford algebra Cl(p, q, r) with its tables computed once.
class Algebra {
public:
  /// Returns the algebra, or nullopt unless 1 <= p + q + r <= kMaxDimension.
  static std::optional<Algebra> get(unsigned p, unsigned q, unsigned r);

  unsigned p() const { return p_; }
  unsigned q() const { return q_; }
  unsigned r() const { return r_; }
  /// n, the number of basis vectors.
  unsigned dimension() const { return p_ + q_ + r_; }
  /// 2^n.
  unsigned numBlades() const { return 1u << dimension(); }
  /// n + 1.
  unsigned numGrades() const { return dimension() + 1; }
  /// True when some basis vector squares to 0 (r > 0).
  bool isDegenerate() const { return r_ > 0; }

  /// Square of basis vector `i` (0-based, in signature order): 0, +1 or -1.
  int metric(unsigned basisVector) const;
  /// Bit i set = basis vector i is a factor of blade `blade`.
  uint32_t bladeMask(unsigned blade) const { return bladeMasks_[blade]; }
  /// Inverse of bladeMask.
  unsigned bladeIndex(uint32_t mask) const { return bladeOfMask_[mask]; }
  unsigned grade(unsigned blade) const;
  /// "1", "e1", "e12", ... (indices start at 0 when r > 0, else at 1).
  std::string bladeName(unsigned blade) const;
  /// The blades of grade `g`, in blade order.
  std::span<const unsigned> bladesOfGrade(unsigned g) const {
    return bladesByGrade_[g];
  }

  /// The Cayley table entry for blade(a) * blade(b).
  BladeProduct product(unsigned a, unsigned b) const {
    return cayley_[a * numBlades() + b];
  }

  /// Signs of the three involutions on `blade`: reverse (-1)^(k(k-1)/2),
  /// grade involution (-1)^k, Clifford conjugate (-1)^(k(k+1)/2).
  int reverseSign(unsigned blade) const;
  int gradeInvolutionSign(unsigned blade) const;
  int conjugateSign(unsigned blade) const;

  /// The pseudoscalar I times its reverse: +1 or -1 (0 when degenerate).
  int pseudoscalarNormSign() const;
  /// blade * I^-1 = sign * blade(result); nullopt in a degenerate algebra.
  std::optional<BladeProduct> dualOf(unsigned blade) const;

  /// All paths, sorted lexicographically by (gx, gz, gy).
  std::span<const Path> paths() const { return paths_; }
  unsigned numPaths() const { return paths_.size(); }
  /// Index of (gx, gz, gy) in paths(), or nullopt when it is not a path.
  std::optional<unsigned> pathIndex(unsigned gx, unsigned gz,
                                    unsigned gy) const;

  /// The distinct (result blade, path) of the non-zero geometric-product
  /// terms, sorted by blade, then path.
  std::span<const PathGroup> pathGroups() const { return pathGroups_; }
  unsigned numPathGroups() const { return pathGroups_.size(); }
  /// Index of (blade, path) in pathGroups(), or nullopt when no term lands
  /// there.
  std::optional<unsigned> pathGroupIndex(unsigned blade, unsigned path) const;

private:
  Algebra(unsigned p, unsigned q, unsigned r);

  unsigned p_, q_, r_;
  std::vector<uint32_t> bladeMasks_;
  std::vector<unsigned> bladeOfMask_;
  std::vector<std::vector<unsigned>> bladesByGrade_;
  std::vector<BladeProduct> cayley_;
  std::vector<Path> paths_;
  std::vector<PathGroup> pathGroups_;
};

} // namespace uta::ga

#endif // UTA_DIALECTS_CLIFFORD_ALGEBRA_ALGEBRA_H
