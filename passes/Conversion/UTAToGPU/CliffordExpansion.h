//===- CliffordExpansion.h - Clifford ops as scalar code --------*- C++ -*-===//
//
// What the clifford kernel emitters share: the compile-time expansion of
// the products from the algebra's tables (dialects/Clifford/Algebra) into the
// terms that may be non-zero, the emission of those terms as f32 arithmetic,
// the readers of operand blades and path weights, and the mapping of a kernel's
// threads onto the positions of a multivector tensor. The emitters
// themselves live in CliffordEmitters.cpp (position-wise ops),
// FcProductEmitter.cpp, GradeRmsNormEmitter.cpp and
// GradeRmsNormAdjointEmitter.cpp.
//
// Terms are summed in f32 in Cayley-table order (lhs blade, then rhs blade).
// A product that carries operand blade sets (lhs_blades, rhs_blades;
// rotor_blades, input_blades; cotangent_blades, other_blades on the
// adjoints) leaves out the terms of the blades outside them, which
// clifford-simplify-grades proved zero.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_CLIFFORDEXPANSION_H
#define UTA_PASSES_CONVERSION_UTATOGPU_CLIFFORDEXPANSION_H

#include "passes/Analysis/GradeAnalysis.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/Clifford/Algebra/Algebra.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace mlir::uta {

class KernelEmitterRegistry;

namespace clifford_kernels {

/// blade(lhs) * blade(rhs) = sign * blade(result), a non-zero term on the
/// grade path `path` (an index into Algebra::paths()).
struct Term {
  unsigned lhs, rhs, result;
  int sign;
  unsigned path;
};

/// A value with the sign it enters a sum with.
struct SignedValue {
  int sign;
  Value value;
};

/// The algebra and blade axis that every clifford op carries.
struct CliffordAttrs {
  const ::uta::ga::Algebra *algebra = nullptr;
  int64_t bladeAxis = 0;
};

/// The algebra and blade axis of a clifford op; a null algebra otherwise.
CliffordAttrs getCliffordAttrs(Operation *op);

/// The non-zero terms of a product keeping `terms`, bucketed by result blade
/// (everything lands on blade 0 for the scalar product), each bucket in
/// Cayley-table order. Terms whose lhs blade is not in `lhsBlades` or whose
/// rhs blade is not in `rhsBlades` are left out: those blades are zero (the
/// sets clifford-simplify-grades records on the op, see getOperandBlades).
SmallVector<SmallVector<Term>> expandProduct(const ::uta::ga::Algebra &algebra,
                                             ProductTerms terms,
                                             uint64_t lhsBlades = ~uint64_t(0),
                                             uint64_t rhsBlades = ~uint64_t(0));

/// The terms of a product keeping `terms`, bucketed by the blade of one of
/// its operands (the lhs blade when `byLhs`, else the rhs blade), each bucket
/// in Cayley-table order: the adjoint of the product with respect to that
/// operand (clifford.product_adjoint) sums bucket i into blade i. Terms
/// whose result blade is not in `cotangentBlades` or whose blade of the
/// other operand is not in `otherBlades` are left out (the adjoint's
/// cotangent_blades and other_blades, see getOperandBlades).
SmallVector<SmallVector<Term>>
expandAdjoint(const ::uta::ga::Algebra &algebra, ProductTerms terms, bool byLhs,
              uint64_t cotangentBlades = ~uint64_t(0),
              uint64_t otherBlades = ~uint64_t(0));

/// The blades of a product's two operands that may be non-zero: the
/// `#clifford.blades` sets on the op (lhs and rhs, rotor and input, or a
/// product adjoint's cotangent and other), every blade where there is none.
std::pair<uint64_t, uint64_t> getOperandBlades(Operation *op);

/// sum of sign * value over `terms`, in order; 0 when there are none.
Value emitSignedSum(OpBuilder &b, Location loc, ArrayRef<SignedValue> terms);

/// Adds `term` to the running `sum` (null before the first term, which then
/// starts it).
void addSignedTerm(OpBuilder &b, Location loc, Value &sum, SignedValue term);

/// `indices` with `index` inserted at position `axis`.
SmallVector<Value> insertIndex(ValueRange indices, int64_t axis, Value index);

/// `shape` without dimension `axis`.
SmallVector<int64_t> dropAxis(ArrayRef<int64_t> shape, int64_t axis);

/// Reads the blades of one multivector operand at one position of its other
/// axes, each blade at most once and only when asked for. An operand that a
/// fused producer computes a multivector at a time is computed once, at the
/// first request, and every blade comes from that one computation.
class BladeReader {
public:
  /// `otherIndices` index the operand's non-blade axes, in order.
  BladeReader(KernelIO &io, unsigned operand, ValueRange otherIndices,
              int64_t bladeAxis)
      : io(io), operand(operand), otherIndices(otherIndices),
        bladeAxis(bladeAxis) {}

  Value get(OpBuilder &b, Location loc, unsigned blade);

private:
  KernelIO &io;
  unsigned operand;
  SmallVector<Value> otherIndices;
  int64_t bladeAxis;
  bool askedForBlades = false;
  std::optional<SmallVector<Value>> computed;
  llvm::SmallDenseMap<unsigned, Value, 16> cache;
};

/// Reads w[f, p] (weighted_product) or w[p, fi, o] (fc_product) for path p,
/// each path at most once.
class PathWeightReader {
public:
  /// The weight's indices for a path index; owned, as callers pass lambdas.
  using IndexFn = std::function<SmallVector<Value>(Value)>;
  PathWeightReader(KernelIO &io, unsigned operand, IndexFn indicesOfPath)
      : io(io), operand(operand), indicesOfPath(std::move(indicesOfPath)) {}

  Value get(OpBuilder &b, Location loc, unsigned path);

private:
  KernelIO &io;
  unsigned operand;
  IndexFn indicesOfPath;
  llvm::SmallDenseMap<unsigned, Value, 32> cache;
};

/// Every blade of a bilinear product of `lhs` and `rhs` from `buckets`: per
/// result blade, the signed sum of lhs_i * rhs_j. `rhsSign(j)` folds a sign
/// of the rhs blade into the term (the reverse in the sandwich).
SmallVector<Value> emitBilinear(OpBuilder &b, Location loc,
                                ArrayRef<SmallVector<Term>> buckets,
                                llvm::function_ref<Value(unsigned)> lhs,
                                llvm::function_ref<Value(unsigned)> rhs,
                                llvm::function_ref<int(unsigned)> rhsSign);

/// The weighted blades of the layer products: per result blade,
/// sum over paths p of w_p * (signed sum of x_i * y_j over the terms on p).
/// Grouping by path multiplies by each weight once per (blade, path).
SmallVector<Value> emitPathWeighted(OpBuilder &b, Location loc,
                                    const ::uta::ga::Algebra &algebra,
                                    ArrayRef<SmallVector<Term>> buckets,
                                    BladeReader &x, BladeReader &y,
                                    PathWeightReader &w);

/// Every blade of the adjoint of a product with respect to its lhs (`ofLhs`)
/// or rhs, from `buckets` (expandAdjoint) and readers of the cotangent and of
/// the other operand: lhs blade i is the signed sum of cotangent_k * y_j over
/// its terms, rhs blade j that of x_i * cotangent_k. With `weights` (the
/// adjoints of weighted_product), a bucket's terms are summed per path and
/// each sum is multiplied by its path's weight, as in emitPathWeighted.
SmallVector<Value> emitAdjoint(OpBuilder &b, Location loc,
                               const ::uta::ga::Algebra &algebra,
                               ArrayRef<SmallVector<Term>> buckets, bool ofLhs,
                               BladeReader &cotangent, BladeReader &other,
                               PathWeightReader *weights);

/// One value per path p of `algebra` (clifford.path_adjoint): the sum over
/// the terms on p of sign * cotangent_k * x_i * y_j, from the product's
/// `buckets` (expandProduct, by result blade k), computed as the sum over k
/// of cotangent_k times the signed sum of x_i * y_j over p's terms into k.
SmallVector<Value> emitPathAdjoint(OpBuilder &b, Location loc,
                                   const ::uta::ga::Algebra &algebra,
                                   ArrayRef<SmallVector<Term>> buckets,
                                   BladeReader &cotangent, BladeReader &x,
                                   BladeReader &y);

/// The body of a loop: the values to yield, given the builder inside the
/// loop, the induction variable and the iteration arguments.
using LoopBody =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>;

/// Emits `for i in [lower, upper) step step` with `inits` as iter_args.
/// Returns the loop's results.
ValueRange emitLoop(OpBuilder &b, Location loc, Value lower, int64_t upper,
                    int64_t step, ValueRange inits, LoopBody body);

/// Emits `for i in [0, count)`; see above.
ValueRange emitLoop(OpBuilder &b, Location loc, int64_t count, ValueRange inits,
                    LoopBody body);

/// Adds up `partials` (one value per entry in each thread) over a block of
/// `group` threads, a power of two, this thread being `lane`: a fixed tree
/// in workgroup memory, the same order on every run and no atomics.
/// Halving strides fold the upper half of each entry's sums onto the lower;
/// every barrier is at the caller's level, so the whole block must reach
/// the call. Returns the buffer, where entry i's total is at i * group.
Value emitBlockTreeSums(OpBuilder &b, Location loc, KernelIO &io, Value lane,
                        int64_t group, ArrayRef<Value> partials);

/// Writes `blades` as the blades of result `result` at `otherIndices`.
void writeBlades(OpBuilder &b, Location loc, KernelIO &io,
                 ValueRange otherIndices, int64_t bladeAxis,
                 ArrayRef<Value> blades, unsigned result = 0);

/// Emits `body` for the position of the result's non-blade axes (of shape
/// `positions`) that thread `thread` computes: one position per thread.
/// With `vectorize`, the accesses of `body` at constant innermost indices
/// are grouped into aligned vectors (an access group of one lane: the path
/// weights w[f, 0..P), a multivector stored blade-last).
///
/// A thread never takes 4 consecutive positions (the lanes that elementwise
/// kernels use): it would hold 4 multivectors of each operand and result,
/// and 4 features of path weights, live until the deferred vector stores.
/// Measured on an H200 on 2026-11-22 (bench/results/), lanes lost at every
/// size tried: the SGP layer in Cl(3,0) at [8, 4096, 512], 120 registers and
/// 75.7 us (ncu) against 77 and 61.8 us; in Cl(2,0) 0.049 against 0.033 ms.
LogicalResult emitPositions(OpBuilder &b, Location loc, Value thread,
                            ArrayRef<int64_t> positions, bool vectorize,
                            KernelIO &io,
                            llvm::function_ref<LogicalResult(ValueRange)> body);

/// fc_product's emitter (FcProductEmitter.cpp): the GEMM engine's
/// tensor-core schedule where `target` allows it, else a tiled SIMT kernel.
void addFcProductEmitter(KernelEmitterRegistry &registry,
                         const GemmTarget &target, bool remarks);
/// fc_product_adjoint's emitter (FcProductAdjointEmitter.cpp): the GEMM
/// engine's mma.sync schedule where `target` allows it, else SIMT.
void addFcProductAdjointEmitter(KernelEmitterRegistry &registry,
                                const GemmTarget &target, bool remarks);
/// fc_product_weight_gradient's emitter (FcProductWeightGradientEmitter.cpp):
/// the GEMM engine's mma.sync schedule where `target` allows it, else SIMT.
void addFcProductWeightGradientEmitter(KernelEmitterRegistry &registry,
                                       const GemmTarget &target, bool remarks);
/// grade_rms_norm's emitter (GradeRmsNormEmitter.cpp).
void addGradeRmsNormEmitter(KernelEmitterRegistry &registry);
/// grade_rms_norm_adjoint's emitter (GradeRmsNormAdjointEmitter.cpp).
void addGradeRmsNormAdjointEmitter(KernelEmitterRegistry &registry);

} // namespace clifford_kernels
} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_CLIFFORDEXPANSION_H
