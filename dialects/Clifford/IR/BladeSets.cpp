//===- BladeSets.cpp - Blade sets and the terms of products ---------------===//

#include "dialects/Clifford/IR/BladeSets.h"

#include "llvm/Support/ErrorHandling.h"

#include <bit>

using namespace mlir;
using llvm::ArrayRef;
using namespace mlir::uta;
using ::uta::ga::Algebra;

uint64_t mlir::uta::getAllBlades(int64_t size) {
  return size >= 64 ? ~uint64_t(0) : (uint64_t(1) << size) - 1;
}

uint64_t mlir::uta::getGradeBlades(const Algebra &algebra,
                                   ArrayRef<int64_t> grades) {
  uint64_t blades = 0;
  for (int64_t grade : grades)
    if (grade >= 0 && grade < algebra.numGrades())
      for (unsigned blade : algebra.bladesOfGrade(grade))
        blades |= uint64_t(1) << blade;
  return blades;
}

/// Whether a product keeping `terms` keeps blade(i) * blade(j) landing on a
/// blade of grade gk, for blades of grades gi and gj.
static bool keepsTerm(ProductTerms terms, unsigned gi, unsigned gj,
                      unsigned gk) {
  switch (terms) {
  case ProductTerms::Geometric:
    return true;
  case ProductTerms::Outer:
    return gk == gi + gj;
  case ProductTerms::LeftContraction:
    return gj >= gi && gk == gj - gi;
  case ProductTerms::Scalar:
    return gk == 0;
  }
  llvm_unreachable("unknown product terms");
}

void mlir::uta::forEachProductTerm(
    const Algebra &algebra, ProductTerms terms, uint64_t lhs, uint64_t rhs,
    llvm::function_ref<void(unsigned, unsigned, ::uta::ga::BladeProduct)> fn) {
  uint64_t all = getAllBlades(algebra.numBlades());
  for (uint64_t i = lhs & all; i; i &= i - 1) {
    unsigned a = std::countr_zero(i);
    for (uint64_t j = rhs & all; j; j &= j - 1) {
      unsigned b = std::countr_zero(j);
      ::uta::ga::BladeProduct product = algebra.product(a, b);
      if (product.sign != 0 &&
          keepsTerm(terms, algebra.grade(a), algebra.grade(b),
                    algebra.grade(product.blade)))
        fn(a, b, product);
    }
  }
}

uint64_t mlir::uta::getProductBlades(const Algebra &algebra, ProductTerms terms,
                                     uint64_t lhs, uint64_t rhs) {
  uint64_t result = 0;
  forEachProductTerm(algebra, terms, lhs, rhs,
                     [&](unsigned, unsigned, ::uta::ga::BladeProduct product) {
                       result |= uint64_t(1) << product.blade;
                     });
  // The scalar product's result has one blade, the scalar.
  if (terms == ProductTerms::Scalar)
    return result ? 1 : 0;
  return result;
}

unsigned mlir::uta::getNumProductTerms(const Algebra &algebra,
                                       ProductTerms terms, uint64_t lhs,
                                       uint64_t rhs) {
  unsigned count = 0;
  forEachProductTerm(
      algebra, terms, lhs, rhs,
      [&](unsigned, unsigned, ::uta::ga::BladeProduct) { ++count; });
  return count;
}

uint64_t mlir::uta::getAdjointBlades(const Algebra &algebra, ProductTerms terms,
                                     bool ofLhs, uint64_t cotangent,
                                     uint64_t other) {
  uint64_t all = getAllBlades(algebra.numBlades());
  uint64_t result = 0;
  forEachProductTerm(
      algebra, terms, ofLhs ? all : other, ofLhs ? other : all,
      [&](unsigned lhs, unsigned rhs, ::uta::ga::BladeProduct product) {
        if ((cotangent >> product.blade) & 1)
          result |= uint64_t(1) << (ofLhs ? lhs : rhs);
      });
  return result;
}

unsigned mlir::uta::getNumAdjointTerms(const Algebra &algebra,
                                       ProductTerms terms, bool ofLhs,
                                       uint64_t cotangent, uint64_t other) {
  uint64_t all = getAllBlades(algebra.numBlades());
  unsigned count = 0;
  forEachProductTerm(algebra, terms, ofLhs ? all : other, ofLhs ? other : all,
                     [&](unsigned, unsigned, ::uta::ga::BladeProduct product) {
                       count += (cotangent >> product.blade) & 1;
                     });
  return count;
}
