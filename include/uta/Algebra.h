//===- Algebra.h - A Clifford algebra as a value ----------------*- C++ -*-===//
//
// uta::Algebra names the real Clifford algebra Cl(p, q, r) that a clifford
// op of a uta::Graph works in: n = p + q + r basis vectors, the first r
// squaring to 0, the next p to +1, the last q to -1, as in the clifford
// dialect (docs/dialects/CliffordDialect.md). Part of the installed public
// API: plain C++20, no MLIR or LLVM header.
//
// The build has no exceptions, so a signature outside 1 <= n <= 6 (or with a
// negative count) still constructs: valid() is false, numBlades() and
// numPaths() are 0, and a Graph builder given it records an error.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_ALGEBRA_H
#define UTA_ALGEBRA_H

#include <cstdint>
#include <string>

namespace uta {

/// The signature (p, q, r) of a Clifford algebra; cheap to copy.
class Algebra {
public:
  /// Cl(p, q, r); check valid() before relying on the tables.
  Algebra(int p, int q, int r = 0) : p_(p), q_(q), r_(r) {}

  int p() const { return p_; }
  int q() const { return q_; }
  int r() const { return r_; }
  /// n = p + q + r, the number of basis vectors.
  int dimension() const { return p_ + q_ + r_; }
  /// Whether p, q, r >= 0 and 1 <= p + q + r <= 6.
  bool valid() const;
  /// 2^n, the size of a blade axis; 0 when invalid.
  int64_t numBlades() const;
  /// n + 1; 0 when invalid.
  int numGrades() const;
  /// The number of paths (gx, gz, gy) of weightedProduct and fcProduct
  /// weights (10 for Cl(2,0), 20 for Cl(3,0)); 0 when invalid.
  int64_t numPaths() const;
  /// "Cl(3, 0, 0)".
  std::string str() const;

  friend bool operator==(const Algebra &, const Algebra &) = default;

private:
  int p_, q_, r_;
};

} // namespace uta

#endif // UTA_ALGEBRA_H
