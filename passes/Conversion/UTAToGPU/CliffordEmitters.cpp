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
//   grade_rms_norm one block per batch element, its threads striding over
//   the features in two passes, their sums of squares added in workgroup
//   memory in a fixed order.
//
// In a fused kernel the position-wise ops (all but fc_product and
// grade_rms_norm) are recomputed a position at a time (emitBlades): every
// blade of a position from one reading of the operands there. scalar_gate
// is also computed element by element.
//
// Vectorized (VectorAccess.h), a thread of a position-wise kernel handles 4
// consecutive positions along the innermost axis when that axis is not the
// blade axis and its size is a multiple of 4 (the features of [2^n, B, F]):
// each blade is then one vector load or store for 4 positions. Otherwise
// its accesses at constant innermost indices are grouped (the blades of a
// multivector stored blade-last; the path weights w[f, p], 20 per feature
// in Cl(3,0), which every layer kernel reads). grade_rms_norm gives each
// thread 4 consecutive features per chunk in the same way.
//
// grade_rms_norm keeps the blades of its features in registers between its
// two passes when they are few (at most kMaxResidentValues per thread: the
// SGP layer at F = 512 holds 4 features of 8 blades), so a fused layer reads
// its inputs and recomputes its producers once; with more features it
// recomputes them in the second pass.
//
// Terms are summed in f32 in Cayley-table order (lhs blade, then rhs blade).
// A product that carries operand blade sets (lhs_blades, rhs_blades;
// rotor_blades, input_blades) leaves out the terms of the blades outside
// them, which clifford-simplify-grades proved zero.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
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
/// Cayley-table order. Terms whose lhs blade is not in `lhsBlades` or whose
/// rhs blade is not in `rhsBlades` are left out: those blades are zero (the
/// sets clifford-simplify-grades records on the op, see getOperandBlades).
static SmallVector<SmallVector<Term>>
expandProduct(const Algebra &algebra, ProductKind kind,
              uint64_t lhsBlades = ~uint64_t(0),
              uint64_t rhsBlades = ~uint64_t(0)) {
  unsigned blades = algebra.numBlades();
  SmallVector<SmallVector<Term>> buckets(blades);
  for (unsigned i = 0; i < blades; ++i) {
    if (!((lhsBlades >> i) & 1))
      continue;
    for (unsigned j = 0; j < blades; ++j) {
      if (!((rhsBlades >> j) & 1))
        continue;
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

/// The blades of a product's two operands that may be non-zero: the
/// `#clifford.blades` sets on the op (lhs and rhs, or rotor and input), every
/// blade where there is none.
static std::pair<uint64_t, uint64_t> getOperandBlades(Operation *op) {
  auto mask = [](BladeSetAttr set) {
    return set ? set.getBlades() : ~uint64_t(0);
  };
  using Blades = std::pair<uint64_t, uint64_t>;
  return llvm::TypeSwitch<Operation *, Blades>(op)
      .Case<GeometricProductOp, OuterProductOp, LeftContractionOp,
            ScalarProductOp, WeightedProductOp, FcProductOp>([&](auto p) {
        return Blades(mask(p.getLhsBladesAttr()), mask(p.getRhsBladesAttr()));
      })
      .Case([&](SandwichOp p) {
        return Blades(mask(p.getRotorBladesAttr()),
                      mask(p.getInputBladesAttr()));
      })
      .Default([](Operation *) { return Blades(~uint64_t(0), ~uint64_t(0)); });
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

  Value get(OpBuilder &b, Location loc, unsigned blade) {
    if (!askedForBlades) {
      askedForBlades = true;
      computed = io.readBlades(b, loc, operand, otherIndices, bladeAxis);
    }
    if (computed)
      return (*computed)[blade];
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

/// Emits `for i in [lower, upper) step step` with `inits` as iter_args;
/// `body` returns the values to yield. Returns the loop's results.
static ValueRange
emitLoop(OpBuilder &b, Location loc, Value lower, int64_t upper, int64_t step,
         ValueRange inits,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             body) {
  auto loop = scf::ForOp::create(
      b, loc, lower, arith::ConstantIndexOp::create(b, loc, upper),
      arith::ConstantIndexOp::create(b, loc, step), inits,
      [&](OpBuilder &nb, Location, Value i, ValueRange acc) {
        scf::YieldOp::create(nb, loc, body(nb, i, acc));
      });
  return loop.getResults();
}

/// Emits `for i in [0, count)`; see above.
static ValueRange
emitLoop(OpBuilder &b, Location loc, int64_t count, ValueRange inits,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             body) {
  return emitLoop(b, loc, arith::ConstantIndexOp::create(b, loc, 0), count, 1,
                  inits, body);
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
  auto [lhsBlades, rhsBlades] = getOperandBlades(op);
  auto product = [&](ProductKind kind) {
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, kind, lhsBlades, rhsBlades);
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
        // into the second product's terms. r x has only the blades that
        // some term of the first product lands on.
        SmallVector<SmallVector<Term>> first = expandProduct(
            algebra, ProductKind::Geometric, lhsBlades, rhsBlades);
        uint64_t rxBlades = 0;
        for (auto [blade, bucket] : llvm::enumerate(first))
          if (!bucket.empty())
            rxBlades |= uint64_t(1) << blade;
        SmallVector<Value> rx =
            emitBilinear(b, loc, first, reader(0), reader(1), noSign);
        return emitBilinear(
            b, loc,
            expandProduct(algebra, ProductKind::Geometric, rxBlades, lhsBlades),
            [&](unsigned blade) { return rx[blade]; }, reader(0),
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

/// Writes `blades` as the result's blades at `otherIndices`.
static void writeBlades(OpBuilder &b, Location loc, KernelIO &io,
                        ValueRange otherIndices, int64_t bladeAxis,
                        ArrayRef<Value> blades) {
  for (auto [blade, value] : llvm::enumerate(blades)) {
    Value index = arith::ConstantIndexOp::create(b, loc, blade);
    io.write(b, loc, 0, insertIndex(otherIndices, bladeAxis, index), value);
  }
}

/// How the threads of a position-wise kernel cover the positions of its
/// result's non-blade axes.
enum class PositionMapping {
  /// One position per thread, scalar accesses (vectorization off).
  Scalar,
  /// One position per thread; accesses at constant innermost indices are
  /// vectorized (an access group of one lane).
  Single,
  /// 4 consecutive positions along the innermost axis per thread, one lane
  /// each.
  Lanes,
};

/// The most blade values of one operand or result that the lanes of a
/// thread hold together (4 lanes of 16 blades): the deferred vector stores
/// keep every lane's result alive until the last lane is done, so larger
/// algebras (32 and 64 blades) keep one position per thread rather than
/// trade occupancy for registers.
static constexpr int64_t kMaxLaneValues = 64;

/// The mapping of a kernel over positions of shape `positions` (the result
/// without its blade axis `bladeAxis`, of `rank` axes) in an algebra of
/// `blades` blades.
static PositionMapping getPositionMapping(ArrayRef<int64_t> positions,
                                          int64_t bladeAxis, int64_t rank,
                                          int64_t blades, bool vectorize) {
  if (!vectorize)
    return PositionMapping::Scalar;
  // Lanes along the innermost axis need it to be a position axis.
  if (bladeAxis != rank - 1 && !positions.empty() &&
      positions.back() % kVectorWidth == 0 &&
      blades * kVectorWidth <= kMaxLaneValues)
    return PositionMapping::Lanes;
  return PositionMapping::Single;
}

/// Emits `body` for each position thread `thread` handles under `mapping`,
/// the position given by its indices over `positions`.
static LogicalResult
emitPositions(OpBuilder &b, Location loc, Value thread,
              ArrayRef<int64_t> positions, PositionMapping mapping,
              KernelIO &io,
              llvm::function_ref<LogicalResult(ValueRange)> body) {
  if (mapping == PositionMapping::Scalar)
    return body(delinearize(b, loc, thread, positions));
  if (mapping == PositionMapping::Single) {
    SmallVector<Value> at = delinearize(b, loc, thread, positions);
    io.beginAccessGroup(b, AccessLanes::single());
    if (failed(body(at)))
      return failure();
    io.endAccessGroup(b, loc);
    return success();
  }
  Value base = arith::MulIOp::create(
      b, loc, thread, arith::ConstantIndexOp::create(b, loc, kVectorWidth));
  SmallVector<Value> first = delinearize(b, loc, base, positions);
  SmallVector<Value> inner = {first.back()};
  for (int64_t k = 1; k < kVectorWidth; ++k)
    inner.push_back(arith::AddIOp::create(
        b, loc, first.back(), arith::ConstantIndexOp::create(b, loc, k)));
  io.beginAccessGroup(b, AccessLanes::rows(inner));
  for (int64_t k = 0; k < kVectorWidth; ++k) {
    io.setLane(k);
    SmallVector<Value> at(first);
    at.back() = inner[k];
    if (failed(body(at)))
      return failure();
  }
  io.endAccessGroup(b, loc);
  return success();
}

namespace {

/// One thread per position of the result's non-blade axes; it reads the
/// operands' blades there (broadcasting size-1 axes) and writes every blade
/// of the result. A fused kernel recomputes such an op a position at a time.
struct BladewiseEmitter : OpKernelEmitter {
  static PositionMapping getMapping(Operation *op, bool vectorize) {
    ArrayRef<int64_t> shape = getStaticShape(op->getResult(0));
    int64_t axis = getCliffordAttrs(op).bladeAxis;
    return getPositionMapping(dropAxis(shape, axis), axis, shape.size(),
                              getCliffordAttrs(op).algebra->numBlades(),
                              vectorize);
  }

  int64_t getNumThreads(Operation *op, bool vectorize) const override {
    CliffordAttrs attrs = getCliffordAttrs(op);
    int64_t positions = getNumElements(
        dropAxis(getStaticShape(op->getResult(0)), attrs.bladeAxis));
    if (getMapping(op, vectorize) == PositionMapping::Lanes)
      return positions / kVectorWidth;
    return positions;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    Location loc = op->getLoc();
    int64_t axis = getCliffordAttrs(op).bladeAxis;
    return emitPositions(
        b, loc, thread, dropAxis(getStaticShape(op->getResult(0)), axis),
        getMapping(op, vectorize), io, [&](ValueRange other) {
          FailureOr<SmallVector<Value>> blades = emitBlades(b, op, other, io);
          if (failed(blades))
            return failure();
          writeBlades(b, loc, io, other, axis, *blades);
          return success();
        });
  }

  bool isReplicable() const override { return true; }

  std::optional<int64_t> getBladeComputableAxis(Operation *op) const override {
    return getCliffordAttrs(op).bladeAxis;
  }

  FailureOr<SmallVector<Value>> emitBlades(OpBuilder &b, Operation *op,
                                           ValueRange otherIndices,
                                           KernelIO &io) const override {
    Location loc = op->getLoc();
    CliffordAttrs attrs = getCliffordAttrs(op);
    if (!attrs.algebra)
      return op->emitOpError("is not a clifford op");
    int64_t axis = attrs.bladeAxis;
    SmallVector<BladeReader, 2> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      // Equal ranks (a verifier rule): broadcasting only pins size-1 axes.
      SmallVector<Value> at = broadcastIndices(
          b, loc, otherIndices, dropAxis(getStaticShape(operand), axis));
      operands.emplace_back(io, i, at, axis);
    }
    return emitBladewise(b, op, *attrs.algebra, operands);
  }
};

/// The gate also computes single elements: y[.., i, ..] = x[.., i, ..] *
/// Phi(x[.., 0, ..]), blade i scaled by the gate of blade 0 at the same
/// position, so any kernel that reads each element once may recompute it.
struct ScalarGateEmitter final : BladewiseEmitter {
  bool isElementComputable() const override { return true; }

  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange indices,
                               KernelIO &io) const override {
    Location loc = op->getLoc();
    SmallVector<Value> scalarAt(indices);
    scalarAt[cast<ScalarGateOp>(op).getBladeAxis()] =
        arith::ConstantIndexOp::create(b, loc, 0);
    // The operations of emitBladewise, so a recomputed element has the bits
    // of a stored one.
    Value gate = emitGeluGate(b, loc, io.read(b, loc, 0, scalarAt));
    return arith::MulFOp::create(b, loc, io.read(b, loc, 0, indices), gate)
        .getResult();
  }
};

//===----------------------------------------------------------------------===//
// Flash Clifford layers ([2^n, B, F], blade axis 0)
//===----------------------------------------------------------------------===//

/// x, y [2^n, B, F], w [F, P]: one thread per (b, f), which a fused kernel
/// (the SGP layer's norm) recomputes a position at a time.
struct WeightedProductEmitter final : OpKernelEmitter {
  static PositionMapping getMapping(Operation *op, bool vectorize) {
    ArrayRef<int64_t> shape = getStaticShape(op->getResult(0));
    return getPositionMapping(shape.drop_front(), 0, shape.size(), shape[0],
                              vectorize);
  }

  int64_t getNumThreads(Operation *op, bool vectorize) const override {
    int64_t positions =
        getNumElements(getStaticShape(op->getResult(0)).drop_front());
    if (getMapping(op, vectorize) == PositionMapping::Lanes)
      return positions / kVectorWidth;
    return positions;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    Location loc = op->getLoc();
    return emitPositions(
        b, loc, thread, getStaticShape(op->getResult(0)).drop_front(),
        getMapping(op, vectorize), io, [&](ValueRange bf) {
          FailureOr<SmallVector<Value>> blades = emitBlades(b, op, bf, io);
          if (failed(blades))
            return failure();
          writeBlades(b, loc, io, bf, 0, *blades);
          return success();
        });
  }

  bool isReplicable() const override { return true; }

  std::optional<int64_t> getBladeComputableAxis(Operation *) const override {
    return 0;
  }

  FailureOr<SmallVector<Value>> emitBlades(OpBuilder &b, Operation *op,
                                           ValueRange bf,
                                           KernelIO &io) const override {
    auto product = cast<WeightedProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    Value f = bf[1];
    BladeReader x(io, 0, bf, 0), y(io, 1, bf, 0);
    PathWeightReader w(io, 2, [&](Value path) {
      return SmallVector<Value>{f, path};
    });
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    return emitPathWeighted(
        b, loc, algebra,
        expandProduct(algebra, ProductKind::Geometric, lhsBlades, rhsBlades), x,
        y, w);
  }
};

/// x, y [2^n, B, Fin], w [P, Fin, Fout]: one thread per (b, o), a loop over
/// the input features with one f32 accumulator per result blade.
struct FcProductEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    auto product = cast<FcProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    SmallVector<Value> bo = delinearize(
        b, loc, thread, getStaticShape(product.getResult()).drop_front());
    Value batch = bo[0], o = bo[1];
    int64_t inFeatures = getStaticShape(product.getLhs())[2];
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductKind::Geometric, lhsBlades, rhsBlades);

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

/// x [2^n, B, F]: one block per batch element b. The features are cut into
/// chunks (4 consecutive features when vectorized and F is a multiple of 4,
/// else single ones) and the block's threads stride over the chunks. A first
/// pass sums the squares of each grade's blades, the block adds the threads'
/// sums in a fixed tree in workgroup memory (the same order on every run, no
/// atomics; every barrier at the kernel's top level, so the whole block
/// reaches it), and a second pass divides by sqrt(mean + epsilon). The
/// blades of x (read, or recomputed when fused) stay in registers between
/// the passes when a thread holds few enough of them; otherwise the second
/// pass reads (recomputes) them again.
struct GradeRmsNormEmitter final : OpKernelEmitter {
  /// The most blade values a thread keeps in registers between the passes.
  static constexpr int64_t kMaxResidentValues = 64;

  /// How a block covers the features of its batch element.
  struct Plan {
    /// Features per chunk: kVectorWidth (one lane each) or 1.
    int64_t width;
    int64_t chunks;
    /// Threads per block: a power of two covering the chunks, from a warp
    /// to 256.
    int64_t group;
    /// Chunks per thread (the last round may leave some threads without).
    int64_t rounds;
    /// Whether the blades stay in registers between the passes.
    bool resident;
    /// Whether accesses go through access groups (vectorization on).
    bool vectorize;
  };

  static Plan getPlan(Operation *op, bool vectorize) {
    ArrayRef<int64_t> shape = getStaticShape(op->getOperand(0));
    int64_t blades = shape[0], features = shape[2];
    Plan plan;
    plan.vectorize = vectorize;
    plan.width = vectorize && features % kVectorWidth == 0 &&
                         blades * kVectorWidth <= kMaxLaneValues
                     ? kVectorWidth
                     : 1;
    plan.chunks = features / plan.width;
    plan.group = std::clamp<int64_t>(llvm::PowerOf2Ceil(plan.chunks), 32, 256);
    plan.rounds = llvm::divideCeil(plan.chunks, plan.group);
    plan.resident = plan.rounds * plan.width * blades <= kMaxResidentValues;
    return plan;
  }

  int64_t getNumThreads(Operation *op, bool vectorize) const override {
    return getStaticShape(op->getResult(0))[1] * getPlan(op, vectorize).group;
  }

  std::optional<int64_t> getBlockSize(Operation *op,
                                      bool vectorize) const override {
    return getPlan(op, vectorize).group;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    auto norm = cast<GradeRmsNormOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = norm.getAlgebra().getAlgebra();
    int64_t features = getStaticShape(norm.getInput())[2];
    unsigned grades = algebra.numGrades(), blades = algebra.numBlades();
    Plan plan = getPlan(op, vectorize);
    Value groupSize = arith::ConstantIndexOp::create(b, loc, plan.group);
    Value lane = arith::RemUIOp::create(b, loc, thread, groupSize);
    Value batch = arith::DivUIOp::create(b, loc, thread, groupSize);

    // The features of chunk `chunk`, one per lane.
    auto featuresOf = [&](OpBuilder &nb, Value chunk) {
      if (plan.width == 1)
        return SmallVector<Value>{chunk};
      Value first = arith::MulIOp::create(
          nb, loc, chunk, arith::ConstantIndexOp::create(nb, loc, plan.width));
      SmallVector<Value> result = {first};
      for (int64_t k = 1; k < plan.width; ++k)
        result.push_back(arith::AddIOp::create(
            nb, loc, first, arith::ConstantIndexOp::create(nb, loc, k)));
      return result;
    };
    auto beginGroup = [&](OpBuilder &nb, ArrayRef<Value> lanes) {
      if (plan.vectorize)
        io.beginAccessGroup(nb, plan.width == 1 ? AccessLanes::single()
                                                : AccessLanes::rows(lanes));
    };
    auto setLane = [&](unsigned k) {
      if (plan.vectorize)
        io.setLane(k);
    };
    auto endGroup = [&](OpBuilder &nb) {
      if (plan.vectorize)
        io.endAccessGroup(nb, loc);
    };
    // Every blade of x at the features of `chunk`, feature-major.
    auto readChunk = [&](OpBuilder &nb, Value chunk) {
      SmallVector<Value> lanes = featuresOf(nb, chunk);
      beginGroup(nb, lanes);
      SmallVector<Value> values;
      for (auto [k, f] : llvm::enumerate(lanes)) {
        setLane(k);
        Value at[] = {batch, f};
        BladeReader x(io, 0, at, 0);
        for (unsigned blade = 0; blade < blades; ++blade)
          values.push_back(x.get(nb, loc, blade));
      }
      endGroup(nb);
      return values;
    };
    // `sums` plus the squares of `values`: feature by feature, each grade's
    // blades in order.
    auto accumulate = [&](OpBuilder &nb, ValueRange sums,
                          ArrayRef<Value> values) {
      SmallVector<Value> next(sums);
      for (int64_t k = 0; k < plan.width; ++k)
        for (unsigned g = 0; g < grades; ++g)
          for (unsigned blade : algebra.bladesOfGrade(g)) {
            Value v = values[k * blades + blade];
            next[g] = arith::AddFOp::create(
                nb, loc, next[g], arith::MulFOp::create(nb, loc, v, v));
          }
      return next;
    };
    auto writeChunk = [&](OpBuilder &nb, Value chunk, ArrayRef<Value> values,
                          ArrayRef<Value> norms) {
      SmallVector<Value> lanes = featuresOf(nb, chunk);
      beginGroup(nb, lanes);
      for (auto [k, f] : llvm::enumerate(lanes)) {
        setLane(k);
        for (unsigned blade = 0; blade < blades; ++blade) {
          Value scaled = arith::DivFOp::create(
              nb, loc, values[k * blades + blade], norms[algebra.grade(blade)]);
          Value index = arith::ConstantIndexOp::create(nb, loc, blade);
          io.write(nb, loc, 0, ValueRange{index, batch, f}, scaled);
        }
      }
      endGroup(nb);
    };
    auto chunkOfRound = [&](int64_t round) -> Value {
      if (round == 0)
        return lane;
      return arith::AddIOp::create(
          b, loc, lane,
          arith::ConstantIndexOp::create(b, loc, round * plan.group));
    };
    // Whether every thread has a chunk in round `round`.
    auto isFullRound = [&](int64_t round) {
      return (round + 1) * plan.group <= plan.chunks;
    };
    auto hasChunk = [&](Value chunk) -> Value {
      return arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, chunk,
          arith::ConstantIndexOp::create(b, loc, plan.chunks));
    };

    // Pass 1: this thread's sums of squares, per grade.
    Value zero = f32Constant(b, loc, 0.0);
    SmallVector<Value> partial(grades, zero);
    SmallVector<SmallVector<Value>> held;
    if (plan.resident) {
      for (int64_t round = 0; round < plan.rounds; ++round) {
        Value chunk = chunkOfRound(round);
        SmallVector<Value> values;
        if (isFullRound(round)) {
          values = readChunk(b, chunk);
        } else {
          // A thread without a chunk holds zeros, which add nothing.
          SmallVector<Type> types(plan.width * blades, b.getF32Type());
          auto read = scf::IfOp::create(b, loc, types, hasChunk(chunk),
                                        /*withElseRegion=*/true);
          OpBuilder thenBuilder = read.getThenBodyBuilder();
          scf::YieldOp::create(thenBuilder, loc, readChunk(thenBuilder, chunk));
          OpBuilder elseBuilder = read.getElseBodyBuilder();
          scf::YieldOp::create(elseBuilder, loc,
                               SmallVector<Value>(types.size(), zero));
          values.assign(read.getResults().begin(), read.getResults().end());
        }
        partial = accumulate(b, partial, values);
        held.push_back(std::move(values));
      }
    } else {
      ValueRange sums =
          emitLoop(b, loc, lane, plan.chunks, plan.group, partial,
                   [&](OpBuilder &nb, Value chunk, ValueRange acc) {
                     return accumulate(nb, acc, readChunk(nb, chunk));
                   });
      partial.assign(sums.begin(), sums.end());
    }

    // sums[g * group + lane]; halving strides fold the upper half of the
    // block's sums onto the lower, so sums[g * group] ends as the total.
    // Only loads and stores are conditional; the barriers are not.
    int64_t group = plan.group;
    Value sums = io.allocateWorkgroupBuffer(b, loc, grades * group);
    SmallVector<Value> slots;
    for (unsigned g = 0; g < grades; ++g) {
      slots.push_back(arith::AddIOp::create(
          b, loc, lane, arith::ConstantIndexOp::create(b, loc, g * group)));
      memref::StoreOp::create(b, loc, partial[g], sums, slots[g]);
    }
    gpu::BarrierOp::create(b, loc);
    for (int64_t stride = group / 2; stride >= 1; stride /= 2) {
      Value strideIndex = arith::ConstantIndexOp::create(b, loc, stride);
      Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           lane, strideIndex);
      auto fold = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
      OpBuilder nb = fold.getThenBodyBuilder();
      for (unsigned g = 0; g < grades; ++g) {
        Value mine = memref::LoadOp::create(nb, loc, sums, slots[g]);
        Value theirs = memref::LoadOp::create(
            nb, loc, sums,
            arith::AddIOp::create(nb, loc, slots[g], strideIndex).getResult());
        memref::StoreOp::create(nb, loc,
                                arith::AddFOp::create(nb, loc, mine, theirs),
                                sums, slots[g]);
      }
      gpu::BarrierOp::create(b, loc);
    }

    Value count = f32Constant(b, loc, static_cast<double>(features));
    Value epsilon = arith::ConstantOp::create(b, loc, norm.getEpsilonAttr());
    SmallVector<Value> norms;
    for (unsigned g = 0; g < grades; ++g) {
      Value sum = memref::LoadOp::create(
          b, loc, sums,
          arith::ConstantIndexOp::create(b, loc, g * group).getResult());
      Value mean = arith::DivFOp::create(b, loc, sum, count);
      norms.push_back(math::SqrtOp::create(
          b, loc, arith::AddFOp::create(b, loc, mean, epsilon)));
    }

    // Pass 2: the blades divided by their grade's norm.
    if (!plan.resident) {
      emitLoop(b, loc, lane, plan.chunks, plan.group, {},
               [&](OpBuilder &nb, Value chunk, ValueRange) {
                 writeChunk(nb, chunk, readChunk(nb, chunk), norms);
                 return SmallVector<Value>();
               });
      return success();
    }
    for (int64_t round = 0; round < plan.rounds; ++round) {
      Value chunk = chunkOfRound(round);
      if (isFullRound(round)) {
        writeChunk(b, chunk, held[round], norms);
        continue;
      }
      auto write = scf::IfOp::create(b, loc, hasChunk(chunk),
                                     /*withElseRegion=*/false);
      OpBuilder thenBuilder = write.getThenBodyBuilder();
      writeChunk(thenBuilder, chunk, held[round], norms);
    }
    return success();
  }
};

} // namespace

void mlir::uta::populateCliffordKernelEmitters(
    KernelEmitterRegistry &registry) {
  registry.add<BladewiseEmitter, GeometricProductOp, OuterProductOp,
               LeftContractionOp, ScalarProductOp, SandwichOp, ReverseOp,
               GradeInvolutionOp, ConjugateOp, GradeProjectOp, DualOp>();
  registry.add<ScalarGateEmitter, ScalarGateOp>();
  registry.add<WeightedProductEmitter, WeightedProductOp>();
  registry.add<FcProductEmitter, FcProductOp>();
  registry.add<GradeRmsNormEmitter, GradeRmsNormOp>();
}
