//===- CliffordKernels.h - Float64 clifford op references -------*- C++ -*-===//
//
// The MLIR-free reference of every op of the `clifford` dialect, computed
// from the algebra library's Cayley table in float64.
//
// Multivector tensors carry one blade axis of size 2^n at `bladeAxis`. The
// products and the sandwich take operands of equal rank (ranks are never
// aligned implicitly, as in the dialect) and broadcast NumPy-style over every
// other axis, so a rotor [2^n, 1] acts on a whole batch [2^n, B].
//
// The three layer ops (weighted_product, fc_product, grade_rms_norm) and the
// adjoints of weighted_product and grade_rms_norm take rank-3 operands
// [2^n, B, F] with the blade axis first.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_REFERENCE_CLIFFORDKERNELS_H
#define UTA_LIB_REFERENCE_CLIFFORDKERNELS_H

#include "lib/Reference/Kernels.h"

#include "dialects/Clifford/Algebra/Algebra.h"

namespace mlir::uta::reference {

enum class ProductKind {
  /// z = x y: every non-zero Cayley term.
  Geometric,
  /// x ^ y: the terms with grade(z) = grade(x) + grade(y).
  Outer,
  /// x _| y: the terms with grade(z) = grade(y) - grade(x) >= 0.
  LeftContraction,
  /// The grade-0 part of x y; the result's blade axis has size 1.
  Scalar,
};

/// One of the four bilinear products, broadcasting over the non-blade axes.
llvm::Expected<RefTensor> cliffordProduct(const ::uta::ga::Algebra &algebra,
                                          ProductKind kind, const RefTensor &x,
                                          const RefTensor &y,
                                          int64_t bladeAxis);

enum class InvolutionKind { Reverse, GradeInvolution, Conjugate };

/// Every blade multiplied by the involution's sign for its grade.
llvm::Expected<RefTensor> involution(const ::uta::ga::Algebra &algebra,
                                     InvolutionKind kind, const RefTensor &x,
                                     int64_t bladeAxis);

/// Keeps the blades whose grade is in `grades` and zeroes the others.
llvm::Expected<RefTensor> gradeProject(const ::uta::ga::Algebra &algebra,
                                       const RefTensor &x,
                                       llvm::ArrayRef<int64_t> grades,
                                       int64_t bladeAxis);

/// y = x I^-1, I the pseudoscalar; an error in a degenerate algebra.
llvm::Expected<RefTensor> dual(const ::uta::ga::Algebra &algebra,
                               const RefTensor &x, int64_t bladeAxis);

/// y = r x reverse(r), broadcasting r against x.
llvm::Expected<RefTensor> sandwich(const ::uta::ga::Algebra &algebra,
                                   const RefTensor &rotor, const RefTensor &x,
                                   int64_t bladeAxis);

/// y = x * Phi(x_scalar), Phi(s) = 0.5 (1 + erf(s / sqrt 2)), the scalar
/// (blade 0) component at the same position along the other axes.
llvm::Expected<RefTensor> scalarGate(const ::uta::ga::Algebra &algebra,
                                     const RefTensor &x, int64_t bladeAxis);

/// y = x * Phi(x_scalar) * Phi(gates_scalar) (scalarGate's Phi), x and
/// gates of one shape.
llvm::Expected<RefTensor> pairGate(const ::uta::ga::Algebra &algebra,
                                   const RefTensor &x, const RefTensor &gates,
                                   int64_t bladeAxis);

/// x, y [2^n, B, F] -> g [B, F]: g[b, f] = Phi(x_0[b, f]) * Phi(y_0[b, f])
/// (scalarGate's Phi), the factor pairGate scales by.
llvm::Expected<RefTensor> pairGateFactor(const ::uta::ga::Algebra &algebra,
                                         const RefTensor &x,
                                         const RefTensor &y);

/// x, y [2^n, B, F], w [F, P] -> z [2^n, B, F]:
/// z_k[b, f] = sum over Cayley terms (i, j -> k, sign s) of
///             s * w[f, path(grade i, grade k, grade j)] * x_i[b, f] * y_j[b,
///             f].
llvm::Expected<RefTensor> weightedProduct(const ::uta::ga::Algebra &algebra,
                                          const RefTensor &x,
                                          const RefTensor &y,
                                          const RefTensor &w);

/// x, y [2^n, B, Fin], w [P, Fin, Fout] -> z [2^n, B, Fout]:
/// z_k[b, o] = sum over terms (i, j -> k, sign s) and fi of
///             s * x_i[b, fi] * y_j[b, fi] * w[path(gi, gk, gj), fi, o],
/// each pair product also times gate[b, fi] where `gate` ([B, Fin]) is
/// given.
llvm::Expected<RefTensor> fcProduct(const ::uta::ga::Algebra &algebra,
                                    const RefTensor &x, const RefTensor &y,
                                    const RefTensor &w,
                                    const RefTensor *gate = nullptr);

/// x [2^n, B, F]: for each b and grade g,
/// y_g[b, :] = x_g[b, :] / sqrt(mean over f of (sum over the blades of grade g
///             of x[blade, b, f]^2) + epsilon).
llvm::Expected<RefTensor> gradeRmsNorm(const ::uta::ga::Algebra &algebra,
                                       const RefTensor &x, double epsilon);

//===----------------------------------------------------------------------===//
// Adjoints of the products
//===----------------------------------------------------------------------===//

/// The operand of a product that an adjoint differentiates.
enum class ProductOperand { Lhs, Rhs };

/// The adjoint of the product `kind` with respect to one operand, the other
/// (`other`) held fixed: for every term e_i e_j = s e_k, with `operand` Lhs
/// (`other` is y) r_i += s * g_k * y_j, with Rhs (`other` is x)
/// r_j += s * x_i * g_k. `cotangent` (g) has the product's result shape (a
/// blade axis of size 1 for Scalar); g and `other` broadcast over the
/// non-blade axes and the result has 2^n blades.
llvm::Expected<RefTensor>
productAdjoint(const ::uta::ga::Algebra &algebra, ProductKind kind,
               ProductOperand operand, const RefTensor &cotangent,
               const RefTensor &other, int64_t bladeAxis);

/// The adjoint of weighted_product with respect to one operand: g, other
/// [2^n, B, F], w [F, P]; as productAdjoint for the geometric product with
/// each term also multiplied by w[f, path(grade i, grade k, grade j)].
llvm::Expected<RefTensor>
weightedProductAdjoint(const ::uta::ga::Algebra &algebra,
                       ProductOperand operand, const RefTensor &cotangent,
                       const RefTensor &other, const RefTensor &w);

/// clifford.fc_product_pair_cotangents: cotangent [2^n, B, Fout], w
/// [paths, Fin, Fout] -> [groups, B, Fin], group q = (k, p) of the algebra's
/// pathGroups: result[q, b, f] = sum over o of cotangent[k, b, o] *
/// w[p, f, o].
llvm::Expected<RefTensor>
fcProductPairCotangents(const ::uta::ga::Algebra &algebra,
                        const RefTensor &cotangent, const RefTensor &w);

/// clifford.fc_product_pair_adjoint: pairs [groups, B, Fin] (as
/// fcProductPairCotangents gives), other [2^n, B, Fin] -> [2^n, B, Fin]:
/// every term i * j -> sign k on path p adds sign * other[j] * pairs[q] to
/// blade i (lhs), or sign * other[i] * pairs[q] to blade j (rhs).
llvm::Expected<RefTensor>
fcProductPairAdjoint(const ::uta::ga::Algebra &algebra, ProductOperand operand,
                     const RefTensor &pairs, const RefTensor &other);

/// The adjoint of fc_product with respect to one operand: g [2^n, B, Fout],
/// other [2^n, B, Fin], w [P, Fin, Fout]; every term (i, j -> k, sign s) on
/// path p adds s * other_j[b, fi] * (g_k[b, :] . w[p, fi, :]) to blade i of
/// the result (Lhs), or s * other_i[b, fi] * (g_k[b, :] . w[p, fi, :]) to
/// blade j (Rhs), [2^n, B, Fin].
llvm::Expected<RefTensor> fcProductAdjoint(const ::uta::ga::Algebra &algebra,
                                           ProductOperand operand,
                                           const RefTensor &cotangent,
                                           const RefTensor &other,
                                           const RefTensor &w);

/// The gradient of fc_product with respect to its weights: g [2^n, B, Fout],
/// x, y [2^n, B, Fin] -> r [P, Fin, Fout]; every term (i, j -> k, sign s)
/// on path p adds s * sum over b of x_i[b, fi] * y_j[b, fi] * g_k[b, o] to
/// r[p, fi, o]. With `batchRuns` R > 1 (dividing B), r is [R, P, Fin, Fout]
/// and r[s] sums over the rows of run s, [s B / R, (s + 1) B / R), alone.
llvm::Expected<RefTensor>
fcProductWeightGradient(const ::uta::ga::Algebra &algebra,
                        const RefTensor &cotangent, const RefTensor &x,
                        const RefTensor &y, int64_t batchRuns = 1);

/// g, x, y [2^n, B, F] -> r [P, ceil(B / batchChunk), F]:
/// r[p, c, f] = sum over the batch elements b of chunk c (c batchChunk ..
/// (c + 1) batchChunk - 1, in increasing order) and over the terms
/// (i, j -> k, sign s) on path p of s * g_k[b, f] * x_i[b, f] * y_j[b, f].
llvm::Expected<RefTensor> pathAdjoint(const ::uta::ga::Algebra &algebra,
                                      const RefTensor &cotangent,
                                      const RefTensor &x, const RefTensor &y,
                                      int64_t batchChunk = 1);

//===----------------------------------------------------------------------===//
// Adjoints of the gate and the norm
//===----------------------------------------------------------------------===//

/// The gradient of sum(g * scalarGate(x)) with respect to x, g and x of one
/// shape: at every position, with s the scalar blade of x,
/// r_b = g_b Phi(s) on every blade b, plus phi(s) * sum over the blades of
/// g_b x_b on blade 0 (phi(s) = exp(-s^2 / 2) / sqrt(2 pi), Phi' = phi).
llvm::Expected<RefTensor> scalarGateAdjoint(const ::uta::ga::Algebra &algebra,
                                            const RefTensor &cotangent,
                                            const RefTensor &x,
                                            int64_t bladeAxis);

/// The gradient of sum(g * gradeRmsNorm(x, epsilon)) with respect to x, g and
/// x [2^n, B, F]: for each b and grade, with
/// r = (mean over f of the grade's sum of x^2 + epsilon)^-1/2 and
/// c = mean over f of the grade's sum of g x, every blade k of the grade
/// gets r[k, b, f] = r * (g[k, b, f] - x[k, b, f] * r^2 * c).
llvm::Expected<RefTensor> gradeRmsNormAdjoint(const ::uta::ga::Algebra &algebra,
                                              const RefTensor &cotangent,
                                              const RefTensor &x,
                                              double epsilon);

} // namespace mlir::uta::reference

#endif // UTA_LIB_REFERENCE_CLIFFORDKERNELS_H
