//===- BladeSets.h - Blade sets and the terms of products -------*- C++ -*-===//
//
// Sets of blades as bit masks (bit i = blade i of the algebra's order) and
// the Cayley terms a product keeps between two such sets: what the ops'
// MultivectorOpInterface, the grade analysis, the fusion cost model and the
// lowering's expansion of products all compute from.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_CLIFFORD_IR_BLADESETS_H
#define UTA_DIALECTS_CLIFFORD_IR_BLADESETS_H

#include "dialects/Clifford/Algebra/Algebra.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace mlir::uta {
using llvm::ArrayRef;

/// Which terms of the geometric product a product keeps (see each product's
/// definition in docs/language.md).
enum class ProductTerms { Geometric, Outer, LeftContraction, Scalar };

/// Every blade of an axis of `size` entries (size <= 64).
uint64_t getAllBlades(int64_t size);

/// The blades of the grades `grades` of `algebra`.
uint64_t getGradeBlades(const ::uta::ga::Algebra &algebra,
                        llvm::ArrayRef<int64_t> grades);

/// The blades that a product keeping `terms` can make non-zero from operands
/// whose non-zero blades are `lhs` and `rhs`: blade k is in the result when
/// some kept term blade(i) * blade(j) = ±blade(k) has i in lhs and j in rhs.
/// The scalar product's one blade is bit 0.
uint64_t getProductBlades(const ::uta::ga::Algebra &algebra, ProductTerms terms,
                          uint64_t lhs, uint64_t rhs);

/// Calls `fn(lhsBlade, rhsBlade, product)` for every Cayley term that a
/// product keeping `terms` has between a blade of `lhs` and a blade of
/// `rhs`: blade(lhsBlade) * blade(rhsBlade) = product.sign *
/// blade(product.blade), sign non-zero. In Cayley-table order (lhs blade,
/// then rhs blade), the order in which the kernels sum the terms.
void forEachProductTerm(
    const ::uta::ga::Algebra &algebra, ProductTerms terms, uint64_t lhs,
    uint64_t rhs,
    llvm::function_ref<void(unsigned, unsigned, ::uta::ga::BladeProduct)> fn);

/// The blades of one operand of a product keeping `terms` that its adjoint
/// (clifford.product_adjoint) can make non-zero: blade i of the lhs (when
/// `ofLhs`, else blade j of the rhs) when some kept term blade(i) * blade(j)
/// = ±blade(k) has k in `cotangent` and the other factor in `other`.
uint64_t getAdjointBlades(const ::uta::ga::Algebra &algebra, ProductTerms terms,
                          bool ofLhs, uint64_t cotangent, uint64_t other);

/// How many Cayley terms a product keeping `terms` has when its operands'
/// blades are restricted to `lhs` and `rhs`: the terms its kernel computes.
unsigned getNumProductTerms(const ::uta::ga::Algebra &algebra,
                            ProductTerms terms, uint64_t lhs, uint64_t rhs);

/// How many Cayley terms the adjoint of a product keeping `terms` with
/// respect to its lhs (when `ofLhs`, else its rhs) has when the cotangent's
/// blades are restricted to `cotangent` and the other operand's to `other`:
/// the terms its kernel computes.
unsigned getNumAdjointTerms(const ::uta::ga::Algebra &algebra,
                            ProductTerms terms, bool ofLhs, uint64_t cotangent,
                            uint64_t other);

} // namespace mlir::uta

#endif // UTA_DIALECTS_CLIFFORD_IR_BLADESETS_H
