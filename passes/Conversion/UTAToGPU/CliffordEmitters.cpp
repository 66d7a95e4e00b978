//===- CliffordEmitters.cpp - Kernels of the clifford ops -----------------===//
//
// Every clifford op is expanded at compile time from the algebra's tables
// (SPEC.md §1.2), so a kernel holds only the non-zero products of its op:
//
// - products, sandwich, involutions, grade_project, dual and scalar_gate run
//   one thread per position of the result's non-blade axes; the thread reads
//   the blades it needs of each operand (at that operand's broadcast
//   position) and writes every blade of the result;
// - weighted_product runs one thread per (batch, feature), fc_product one
//   per (batch, output feature) with a loop over the input features, and
//   grade_rms_norm one per batch element with two passes over the features.
//
// Terms are summed in f32 in Cayley-table order (lhs blade, then rhs blade).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using ::uta::ga::Algebra;

//===----------------------------------------------------------------------===//
// Compile-time expansion of the products
//===----------------------------------------------------------------------===//

namespace {

/// Which terms of the geometric product a product keeps.
enum class ProductKind { Geometric, Outer, LeftContraction, Scalar };

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
  const Algebra *algebra = nullptr;
  int64_t bladeAxis = 0;
};

} // namespace

static CliffordAttrs getCliffordAttrs(Operation *op) {
  return llvm::TypeSwitch<Operation *, CliffordAttrs>(op)
      .Case<GeometricProductOp, OuterProductOp, LeftContractionOp,
            ScalarProductOp, SandwichOp, ReverseOp, GradeInvolutionOp,
            ConjugateOp, GradeProjectOp, DualOp, ScalarGateOp,
            WeightedProductOp, FcProductOp, GradeRmsNormOp>([](auto op) {
        return CliffordAttrs{&op.getAlgebra().getAlgebra(),
                             static_cast<int64_t>(op.getBladeAxis())};
      })
      .Default([](Operation *) { return CliffordAttrs(); });
}

/// The non-zero terms of a product of `kind`, bucketed by result blade
/// (everything lands on blade 0 for the scalar product), each bucket in
/// Cayley-table order.
static SmallVector<SmallVector<Term>> expandProduct(const Algebra &algebra,
                                                    ProductKind kind) {
  unsigned blades = algebra.numBlades();
  SmallVector<SmallVector<Term>> buckets(blades);
  for (unsigned i = 0; i < blades; ++i) {
    for (unsigned j = 0; j < blades; ++j) {
      ::uta::ga::BladeProduct product = algebra.product(i, j);
      if (product.sign == 0)
        continue;
      unsigned gi = algebra.grade(i), gj = algebra.grade(j);
      unsigned gk = algebra.grade(product.blade);
      bool keep =
          kind == ProductKind::Geometric ||
          (kind == ProductKind::Outer && gk == gi + gj) ||
          (kind == ProductKind::LeftContraction && gj >= gi && gk == gj - gi) ||
          (kind == ProductKind::Scalar && gk == 0);
      if (!keep)
        continue;
      // A non-zero term lies on a path by the definition of paths.
      std::optional<unsigned> path = algebra.pathIndex(gi, gk, gj);
      assert(path && "a non-zero product must lie on a path");
      buckets[product.blade].push_back(
          {i, j, product.blade, product.sign, path.value_or(0)});
    }
  }
  return buckets;
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

/// sum of sign * value over `terms`, in order; 0 when there are none.
static Value emitSignedSum(OpBuilder &b, Location loc,
                           ArrayRef<SignedValue> terms) {
  if (terms.empty())
    return f32Constant(b, loc, 0.0);
  Value sum = terms.front().value;
  if (terms.front().sign < 0)
    sum = arith::NegFOp::create(b, loc, sum);
  for (const SignedValue &term : terms.drop_front()) {
    if (term.sign > 0)
      sum = arith::AddFOp::create(b, loc, sum, term.value);
    else
      sum = arith::SubFOp::create(b, loc, sum, term.value);
  }
  return sum;
}

/// `indices` with `index` inserted at position `axis`.
static SmallVector<Value> insertIndex(ValueRange indices, int64_t axis,
                                      Value index) {
  SmallVector<Value> result(indices);
  result.insert(result.begin() + axis, index);
  return result;
}

/// `shape` without dimension `axis`.
static SmallVector<int64_t> dropAxis(ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t> result(shape);
  result.erase(result.begin() + axis);
  return result;
}

namespace {

/// Reads the blades of one multivector operand at one position of its other
/// axes, each blade at most once and only when asked for.
class BladeReader {
public:
  /// `otherIndices` index the operand's non-blade axes, in order.
  BladeReader(KernelIO &io, unsigned operand, ValueRange otherIndices,
              int64_t bladeAxis)
      : io(io), operand(operand), otherIndices(otherIndices),
        bladeAxis(bladeAxis) {}

  Value get(OpBuilder &b, Location loc, unsigned blade) {
    Value &value = cache[blade];
    if (!value) {
      Value index = arith::ConstantIndexOp::create(b, loc, blade);
      value =
          io.read(b, loc, operand, insertIndex(otherIndices, bladeAxis, index));
    }
    return value;
  }

private:
  KernelIO &io;
  unsigned operand;
  SmallVector<Value> otherIndices;
  int64_t bladeAxis;
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

  Value get(OpBuilder &b, Location loc, unsigned path) {
    Value &value = cache[path];
    if (!value)
      value =
          io.read(b, loc, operand,
                  indicesOfPath(arith::ConstantIndexOp::create(b, loc, path)));
    return value;
  }

private:
  KernelIO &io;
  unsigned operand;
  IndexFn indicesOfPath;
  llvm::SmallDenseMap<unsigned, Value, 32> cache;
};

} // namespace

/// Every blade of a bilinear product of `lhs` and `rhs` from `buckets`: per
/// result blade, the signed sum of lhs_i * rhs_j. `rhsSign(j)` folds a sign
/// of the rhs blade into the term (the reverse in the sandwich).
static SmallVector<Value>
emitBilinear(OpBuilder &b, Location loc, ArrayRef<SmallVector<Term>> buckets,
             llvm::function_ref<Value(unsigned)> lhs,
             llvm::function_ref<Value(unsigned)> rhs,
             llvm::function_ref<int(unsigned)> rhsSign) {
  SmallVector<Value> blades;
  for (ArrayRef<Term> bucket : buckets) {
    SmallVector<SignedValue> products;
    for (const Term &t : bucket) {
      // Named reads: argument order is unspecified, the IR's must not be.
      Value l = lhs(t.lhs), r = rhs(t.rhs);
      Value product = arith::MulFOp::create(b, loc, l, r);
      products.push_back({t.sign * rhsSign(t.rhs), product});
    }
    blades.push_back(emitSignedSum(b, loc, products));
  }
  return blades;
}

/// The weighted blades of the layer products: per result blade,
/// sum over paths p of w_p * (signed sum of x_i * y_j over the terms on p).
/// Grouping by path multiplies by each weight once per (blade, path).
static SmallVector<Value> emitPathWeighted(OpBuilder &b, Location loc,
                                           const Algebra &algebra,
                                           ArrayRef<SmallVector<Term>> buckets,
                                           BladeReader &x, BladeReader &y,
                                           PathWeightReader &w) {
  SmallVector<Value> blades;
  for (ArrayRef<Term> bucket : buckets) {
    SmallVector<SmallVector<SignedValue>> byPath(algebra.numPaths());
    for (const Term &t : bucket) {
      Value l = x.get(b, loc, t.lhs), r = y.get(b, loc, t.rhs);
      Value product = arith::MulFOp::create(b, loc, l, r);
      byPath[t.path].push_back({t.sign, product});
    }
    SmallVector<SignedValue> weighted;
    for (auto [path, terms] : llvm::enumerate(byPath)) {
      if (terms.empty())
        continue;
      Value sum = emitSignedSum(b, loc, terms);
      weighted.push_back(
          {+1, arith::MulFOp::create(b, loc, w.get(b, loc, path), sum)});
    }
    blades.push_back(emitSignedSum(b, loc, weighted));
  }
  return blades;
}

/// Emits `for i in [0, count)` with `inits` as iter_args; `body` returns the
/// values to yield. Returns the loop's results.
static ValueRange
emitLoop(OpBuilder &b, Location loc, int64_t count, ValueRange inits,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value upper = arith::ConstantIndexOp::create(b, loc, count);
  auto loop =
      scf::ForOp::create(b, loc, zero, upper, one, inits,
                         [&](OpBuilder &nb, Location, Value i, ValueRange acc) {
                           scf::YieldOp::create(nb, loc, body(nb, i, acc));
                         });
  return loop.getResults();
}

//===----------------------------------------------------------------------===//
// Ops over broadcast multivector tensors
//===----------------------------------------------------------------------===//

/// The result blades of a product, sandwich, involution, projection, dual or
/// gate, from readers of its operands' blades at one position.
static FailureOr<SmallVector<Value>>
emitBladewise(OpBuilder &b, Operation *op, const Algebra &algebra,
              MutableArrayRef<BladeReader> operands) {
  Location loc = op->getLoc();
  unsigned blades = algebra.numBlades();
  auto reader = [&](unsigned operand) {
    return [&, operand](unsigned blade) {
      return operands[operand].get(b, loc, blade);
    };
  };
  auto noSign = [](unsigned) { return 1; };
  auto product = [&](ProductKind kind) {
    SmallVector<SmallVector<Term>> buckets = expandProduct(algebra, kind);
    if (kind == ProductKind::Scalar)
      buckets.resize(1);
    return emitBilinear(b, loc, buckets, reader(0), reader(1), noSign);
  };
  // Each blade times a sign of its own (+1 or -1).
  auto signs = [&](auto signOf) {
    SmallVector<Value> result;
    for (unsigned blade = 0; blade < blades; ++blade)
      result.push_back(emitSignedSum(
          b, loc, SignedValue{signOf(blade), operands[0].get(b, loc, blade)}));
    return result;
  };

  using Result = FailureOr<SmallVector<Value>>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](GeometricProductOp) { return product(ProductKind::Geometric); })
      .Case([&](OuterProductOp) { return product(ProductKind::Outer); })
      .Case([&](LeftContractionOp) {
        return product(ProductKind::LeftContraction);
      })
      .Case([&](ScalarProductOp) { return product(ProductKind::Scalar); })
      .Case([&](SandwichOp) {
        // (r x) reverse(r): two products of 4^n terms each at most, far
        // fewer than the 8^n of the triple sum; the reverse's signs fold
        // into the second product's terms.
        SmallVector<SmallVector<Term>> buckets =
            expandProduct(algebra, ProductKind::Geometric);
        SmallVector<Value> rx =
            emitBilinear(b, loc, buckets, reader(0), reader(1), noSign);
        return emitBilinear(
            b, loc, buckets, [&](unsigned blade) { return rx[blade]; },
            reader(0),
            [&](unsigned blade) { return algebra.reverseSign(blade); });
      })
      .Case([&](ReverseOp) {
        return signs(
            [&](unsigned blade) { return algebra.reverseSign(blade); });
      })
      .Case([&](GradeInvolutionOp) {
        return signs(
            [&](unsigned blade) { return algebra.gradeInvolutionSign(blade); });
      })
      .Case([&](ConjugateOp) {
        return signs(
            [&](unsigned blade) { return algebra.conjugateSign(blade); });
      })
      .Case([&](GradeProjectOp project) {
        SmallVector<bool> keep(algebra.numGrades(), false);
        for (int64_t grade : project.getGrades())
          keep[grade] = true;
        SmallVector<Value> result;
        Value zero = f32Constant(b, loc, 0.0);
        for (unsigned blade = 0; blade < blades; ++blade)
          result.push_back(keep[algebra.grade(blade)]
                               ? operands[0].get(b, loc, blade)
                               : zero);
        return result;
      })
      .Case([&](DualOp dual) -> Result {
        // y = x I^-1 maps blade to blade: y_dual(b) = sign * x_b.
        SmallVector<SmallVector<SignedValue>> terms(blades);
        for (unsigned blade = 0; blade < blades; ++blade) {
          std::optional<::uta::ga::BladeProduct> image = algebra.dualOf(blade);
          if (!image)
            return dual.emitOpError("has no dual in a degenerate algebra");
          terms[image->blade].push_back(
              {image->sign, operands[0].get(b, loc, blade)});
        }
        SmallVector<Value> result;
        for (ArrayRef<SignedValue> blade : terms)
          result.push_back(emitSignedSum(b, loc, blade));
        return result;
      })
      .Case([&](ScalarGateOp) {
        Value gate = emitGeluGate(b, loc, operands[0].get(b, loc, 0));
        SmallVector<Value> result;
        for (unsigned blade = 0; blade < blades; ++blade)
          result.push_back(arith::MulFOp::create(
              b, loc, operands[0].get(b, loc, blade), gate));
        return result;
      })
      .Default([&](Operation *) -> Result {
        return op->emitOpError("has no bladewise GPU kernel");
      });
}

namespace {

/// One thread per position of the result's non-blade axes; it reads the
/// operands' blades there (broadcasting size-1 axes) and writes every blade
/// of the result.
struct BladewiseEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    CliffordAttrs attrs = getCliffordAttrs(op);
    return getNumElements(
        dropAxis(getStaticShape(op->getResult(0)), attrs.bladeAxis));
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    Location loc = op->getLoc();
    CliffordAttrs attrs = getCliffordAttrs(op);
    if (!attrs.algebra)
      return op->emitOpError("is not a clifford op");
    int64_t axis = attrs.bladeAxis;
    SmallVector<int64_t> otherShape =
        dropAxis(getStaticShape(op->getResult(0)), axis);
    SmallVector<Value> other = delinearize(b, loc, thread, otherShape);

    SmallVector<BladeReader, 2> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      // Equal ranks (a verifier rule): broadcasting only pins size-1 axes.
      SmallVector<Value> at = broadcastIndices(
          b, loc, other, dropAxis(getStaticShape(operand), axis));
      operands.emplace_back(io, i, at, axis);
    }
    FailureOr<SmallVector<Value>> blades =
        emitBladewise(b, op, *attrs.algebra, operands);
    if (failed(blades))
      return failure();
    for (auto [blade, value] : llvm::enumerate(*blades)) {
      Value index = arith::ConstantIndexOp::create(b, loc, blade);
      io.write(b, loc, 0, insertIndex(other, axis, index), value);
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Flash Clifford layers ([2^n, B, F], blade axis 0)
//===----------------------------------------------------------------------===//

/// x, y [2^n, B, F], w [F, P]: one thread per (b, f).
struct WeightedProductEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    auto product = cast<WeightedProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    SmallVector<Value> bf = delinearize(
        b, loc, thread, getStaticShape(product.getResult()).drop_front());
    Value f = bf[1];

    BladeReader x(io, 0, bf, 0), y(io, 1, bf, 0);
    PathWeightReader w(io, 2, [&](Value path) {
      return SmallVector<Value>{f, path};
    });
    SmallVector<Value> blades = emitPathWeighted(
        b, loc, algebra, expandProduct(algebra, ProductKind::Geometric), x, y,
        w);
    for (auto [blade, value] : llvm::enumerate(blades))
      io.write(
          b, loc, 0,
          insertIndex(bf, 0, arith::ConstantIndexOp::create(b, loc, blade)),
          value);
    return success();
  }
};

/// x, y [2^n, B, Fin], w [P, Fin, Fout]: one thread per (b, o), a loop over
/// the input features with one f32 accumulator per result blade.
struct FcProductEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    auto product = cast<FcProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    SmallVector<Value> bo = delinearize(
        b, loc, thread, getStaticShape(product.getResult()).drop_front());
    Value batch = bo[0], o = bo[1];
    int64_t inFeatures = getStaticShape(product.getLhs())[2];
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductKind::Geometric);

    SmallVector<Value> zeros(algebra.numBlades(), f32Constant(b, loc, 0.0));
    ValueRange sums =
        emitLoop(b, loc, inFeatures, zeros,
                 [&](OpBuilder &nb, Value fi, ValueRange acc) {
                   Value at[] = {batch, fi};
                   BladeReader x(io, 0, at, 0), y(io, 1, at, 0);
                   PathWeightReader w(io, 2, [&](Value path) {
                     return SmallVector<Value>{path, fi, o};
                   });
                   SmallVector<Value> terms =
                       emitPathWeighted(nb, loc, algebra, buckets, x, y, w);
                   SmallVector<Value> next;
                   for (auto [sum, term] : llvm::zip_equal(acc, terms))
                     next.push_back(arith::AddFOp::create(nb, loc, sum, term));
                   return next;
                 });
    for (auto [blade, value] : llvm::enumerate(sums))
      io.write(
          b, loc, 0,
          insertIndex(bo, 0, arith::ConstantIndexOp::create(b, loc, blade)),
          value);
    return success();
  }
};

/// x [2^n, B, F]: one thread per b. A first pass sums the squares of each
/// grade's blades over F; a second divides by sqrt(mean + epsilon).
struct GradeRmsNormEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    return getStaticShape(op->getResult(0))[1];
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    auto norm = cast<GradeRmsNormOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = norm.getAlgebra().getAlgebra();
    int64_t features = getStaticShape(norm.getInput())[2];
    unsigned grades = algebra.numGrades();

    SmallVector<Value> zeros(grades, f32Constant(b, loc, 0.0));
    ValueRange sumsOfSquares = emitLoop(
        b, loc, features, zeros, [&](OpBuilder &nb, Value f, ValueRange acc) {
          Value at[] = {thread, f};
          BladeReader x(io, 0, at, 0);
          SmallVector<Value> next;
          for (unsigned g = 0; g < grades; ++g) {
            Value sum = acc[g];
            for (unsigned blade : algebra.bladesOfGrade(g)) {
              Value v = x.get(nb, loc, blade);
              sum = arith::AddFOp::create(nb, loc, sum,
                                          arith::MulFOp::create(nb, loc, v, v));
            }
            next.push_back(sum);
          }
          return next;
        });

    Value count = f32Constant(b, loc, static_cast<double>(features));
    Value epsilon = arith::ConstantOp::create(b, loc, norm.getEpsilonAttr());
    SmallVector<Value> norms;
    for (Value sum : sumsOfSquares) {
      Value mean = arith::DivFOp::create(b, loc, sum, count);
      norms.push_back(math::SqrtOp::create(
          b, loc, arith::AddFOp::create(b, loc, mean, epsilon)));
    }

    emitLoop(b, loc, features, {}, [&](OpBuilder &nb, Value f, ValueRange) {
      Value at[] = {thread, f};
      BladeReader x(io, 0, at, 0);
      for (unsigned blade = 0; blade < algebra.numBlades(); ++blade) {
        Value scaled = arith::DivFOp::create(nb, loc, x.get(nb, loc, blade),
                                             norms[algebra.grade(blade)]);
        Value index = arith::ConstantIndexOp::create(nb, loc, blade);
        io.write(nb, loc, 0, ValueRange{index, thread, f}, scaled);
      }
      return SmallVector<Value>();
    });
    return success();
  }
};

} // namespace

void mlir::uta::populateCliffordKernelEmitters(
    KernelEmitterRegistry &registry) {
  registry.add<BladewiseEmitter, GeometricProductOp, OuterProductOp,
               LeftContractionOp, ScalarProductOp, SandwichOp, ReverseOp,
               GradeInvolutionOp, ConjugateOp, GradeProjectOp, DualOp,
               ScalarGateOp>();
  registry.add<WeightedProductEmitter, WeightedProductOp>();
  registry.add<FcProductEmitter, FcProductOp>();
  registry.add<GradeRmsNormEmitter, GradeRmsNormOp>();
}
