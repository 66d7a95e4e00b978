//===- CliffordEmitters.cpp - Kernels of the position-wise clifford ops ---===//
//
// Products, sandwich, involutions, grade_project, dual, scalar_gate and
// weighted_product: one thread per position of the result's non-blade axes
// (weighted_product: per (batch, feature)); the thread reads the blades it
// needs of each operand (at that operand's broadcast position) and writes
// every blade of the result. The expansion into terms is
// CliffordExpansion.h's; fc_product and grade_rms_norm have files of their
// own.
//
// In a fused kernel these ops are recomputed a position at a time
// (emitBlades): every blade of a position from one reading of the operands
// there. scalar_gate is also computed element by element.
//
// Vectorized (VectorAccess.h), a thread's accesses at constant innermost
// indices are grouped (the blades of a multivector stored blade-last; the
// path weights w[f, p], 20 per feature in Cl(3,0), which every layer kernel
// reads); a thread still computes one position (emitPositions says why).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

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
  auto product = [&](ProductTerms terms) {
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, terms, lhsBlades, rhsBlades);
    if (terms == ProductTerms::Scalar)
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
      .Case(
          [&](GeometricProductOp) { return product(ProductTerms::Geometric); })
      .Case([&](OuterProductOp) { return product(ProductTerms::Outer); })
      .Case([&](LeftContractionOp) {
        return product(ProductTerms::LeftContraction);
      })
      .Case([&](ScalarProductOp) { return product(ProductTerms::Scalar); })
      .Case([&](SandwichOp) {
        // (r x) reverse(r): two products of 4^n terms each at most, far
        // fewer than the 8^n of the triple sum; the reverse's signs fold
        // into the second product's terms. r x has only the blades that
        // some term of the first product lands on.
        SmallVector<SmallVector<Term>> first = expandProduct(
            algebra, ProductTerms::Geometric, lhsBlades, rhsBlades);
        uint64_t rxBlades = 0;
        for (auto [blade, bucket] : llvm::enumerate(first))
          if (!bucket.empty())
            rxBlades |= uint64_t(1) << blade;
        SmallVector<Value> rx =
            emitBilinear(b, loc, first, reader(0), reader(1), noSign);
        return emitBilinear(
            b, loc,
            expandProduct(algebra, ProductTerms::Geometric, rxBlades,
                          lhsBlades),
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

namespace {

/// One thread per position of the result's non-blade axes; it reads the
/// operands' blades there (broadcasting size-1 axes) and writes every blade
/// of the result. A fused kernel recomputes such an op a position at a time.
struct BladewiseEmitter : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    return getNumElements(dropAxis(getStaticShape(op->getResult(0)),
                                   getCliffordAttrs(op).bladeAxis));
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    Location loc = op->getLoc();
    int64_t axis = getCliffordAttrs(op).bladeAxis;
    return emitPositions(
        b, loc, thread, dropAxis(getStaticShape(op->getResult(0)), axis),
        vectorize, io, [&](ValueRange other) {
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
  int64_t getNumThreads(Operation *op, bool) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    Location loc = op->getLoc();
    return emitPositions(
        b, loc, thread, getStaticShape(op->getResult(0)).drop_front(),
        vectorize, io, [&](ValueRange bf) {
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
        expandProduct(algebra, ProductTerms::Geometric, lhsBlades, rhsBlades),
        x, y, w);
  }
};

} // namespace

void mlir::uta::populateCliffordKernelEmitters(KernelEmitterRegistry &registry,
                                               const GemmTarget &target,
                                               bool remarks) {
  registry.add<BladewiseEmitter, GeometricProductOp, OuterProductOp,
               LeftContractionOp, ScalarProductOp, SandwichOp, ReverseOp,
               GradeInvolutionOp, ConjugateOp, GradeProjectOp, DualOp>();
  registry.add<ScalarGateEmitter, ScalarGateOp>();
  registry.add<WeightedProductEmitter, WeightedProductOp>();
  addFcProductEmitter(registry, target, remarks);
  addGradeRmsNormEmitter(registry);
}
