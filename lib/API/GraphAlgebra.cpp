//===- GraphAlgebra.cpp - uta::Algebra of the public API ------------------===//
//
// The out-of-line members of uta::Algebra (include/uta/Algebra.h): the
// counts come from the algebra library that the clifford dialect uses, so
// the API and the verifiers agree on what a signature allows.
//
//===----------------------------------------------------------------------===//

#include "uta/Algebra.h"

#include "dialects/Clifford/Algebra/Algebra.h"

#include <optional>

/// The tables of `algebra`, nullopt when it is not valid.
static std::optional<uta::ga::Algebra> tables(const uta::Algebra &algebra) {
  if (!algebra.valid())
    return std::nullopt;
  return uta::ga::Algebra::get(algebra.p(), algebra.q(), algebra.r());
}

bool uta::Algebra::valid() const {
  if (p_ < 0 || q_ < 0 || r_ < 0)
    return false;
  // Summed in 64 bits so that huge counts cannot wrap into range.
  int64_t n = int64_t(p_) + q_ + r_;
  return n >= 1 && n <= int64_t(ga::kMaxDimension);
}

int64_t uta::Algebra::numBlades() const {
  return valid() ? int64_t(1) << dimension() : 0;
}

int uta::Algebra::numGrades() const { return valid() ? dimension() + 1 : 0; }

int64_t uta::Algebra::numPaths() const {
  std::optional<ga::Algebra> algebra = tables(*this);
  return algebra ? algebra->numPaths() : 0;
}

std::string uta::Algebra::str() const {
  return "Cl(" + std::to_string(p_) + ", " + std::to_string(q_) + ", " +
         std::to_string(r_) + ")";
}
