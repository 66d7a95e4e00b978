//===- CliffordEmitters.cpp - Kernels of the position-wise clifford ops ---===//
//
// Products, sandwich, involutions, grade_project, dual, scalar_gate,
// weighted_product, the adjoints of the products and scalar_gate_adjoint:
// one thread per position of the result's non-blade axes (the layer ops: per
// (batch, feature)); the thread reads the blades it needs of each operand
// (at that operand's broadcast position) and writes every blade of the
// result, or for path_adjoint one value per path. The expansion into terms is
// CliffordExpansion.h's; fc_product, grade_rms_norm and its adjoint have
// files of their own.
//
// In a fused kernel these ops are recomputed a position at a time
// (emitBlades): every blade of a position from one reading of the operands
// there. scalar_gate is also computed element by element. path_adjoint,
// whose result holds paths rather than blades, is always a kernel of its
// own.
//
// Vectorized (VectorAccess.h), a thread's accesses at constant innermost
// indices are grouped (the blades of a multivector stored blade-last; the
// path weights w[f, p], 20 per feature in Cl(3,0), which every layer kernel
// reads); a thread still computes one position (emitPositions says why).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/GemmOpEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
      .Case([&](ProductAdjointOp adjoint) {
        // The cotangent of a scalar product has blade 0 only, which is
        // where every term of that product lands (and what its
        // cotangent_blades can name).
        bool ofLhs = adjoint.getOperand() == ProductOperand::lhs;
        return emitAdjoint(b, loc, algebra,
                           expandAdjoint(algebra, adjoint.getProductTerms(),
                                         ofLhs, lhsBlades, rhsBlades),
                           ofLhs, operands[0], operands[1],
                           /*weights=*/nullptr);
      })
      .Case([&](ScalarGateOp) {
        Value gate = emitGeluGate(b, loc, operands[0].get(b, loc, 0));
        SmallVector<Value> result;
        for (unsigned blade = 0; blade < blades; ++blade)
          result.push_back(arith::MulFOp::create(
              b, loc, operands[0].get(b, loc, blade), gate));
        return result;
      })
      .Case([&](PairGateOp) {
        // The operations in the reference's order: Phi(s) Phi(t), then the
        // scale of each blade.
        Value gate = arith::MulFOp::create(
            b, loc, emitGeluGate(b, loc, operands[0].get(b, loc, 0)),
            emitGeluGate(b, loc, operands[1].get(b, loc, 0)));
        SmallVector<Value> result;
        for (unsigned blade = 0; blade < blades; ++blade)
          result.push_back(arith::MulFOp::create(
              b, loc, operands[0].get(b, loc, blade), gate));
        return result;
      })
      .Case([&](ScalarGateAdjointOp) {
        // dx_b = g_b Phi(s), plus phi(s) <g, x> on the scalar blade, the dot
        // product summed over the blades in order.
        BladeReader &g = operands[0], &x = operands[1];
        Value s = x.get(b, loc, 0);
        Value gate = emitGeluGate(b, loc, s);
        SmallVector<SignedValue> dot;
        for (unsigned blade = 0; blade < blades; ++blade) {
          // Named reads: argument order is unspecified, the IR's must not be.
          Value gb = g.get(b, loc, blade);
          Value xb = x.get(b, loc, blade);
          dot.push_back({+1, arith::MulFOp::create(b, loc, gb, xb)});
        }
        Value density = emitNormalDensity(b, loc, s);
        Value slope =
            arith::MulFOp::create(b, loc, density, emitSignedSum(b, loc, dot));
        SmallVector<Value> result;
        for (unsigned blade = 0; blade < blades; ++blade)
          result.push_back(
              arith::MulFOp::create(b, loc, g.get(b, loc, blade), gate));
        result[0] = arith::AddFOp::create(b, loc, result[0], slope);
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

/// pair_gate_factor: element (b, f) of the [B, F] result from the scalar
/// blades of both operands at (0, b, f), 4 consecutive features per thread
/// when vectorized, as elementwise kernels take them.
struct PairGateFactorEmitter final : ElementEmitter {
  bool isReplicable() const override { return true; }

  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange indices,
                               KernelIO &io) const override {
    Location loc = op->getLoc();
    SmallVector<Value> scalarAt{arith::ConstantIndexOp::create(b, loc, 0)};
    scalarAt.append(indices.begin(), indices.end());
    // pair_gate's operations in its order: Phi(s) Phi(t).
    return arith::MulFOp::create(
               b, loc, emitGeluGate(b, loc, io.read(b, loc, 0, scalarAt)),
               emitGeluGate(b, loc, io.read(b, loc, 1, scalarAt)))
        .getResult();
  }
};

//===----------------------------------------------------------------------===//
// Flash Clifford layers ([2^n, B, F], blade axis 0)
//===----------------------------------------------------------------------===//

/// The layer ops ([2^n, B, F] operands, blade axis 0): one thread per
/// (b, f), which writes the values emitLayerPosition gives along axis 0 of
/// the result.
struct LayerEmitter : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    Location loc = op->getLoc();
    return emitPositions(
        b, loc, thread, getStaticShape(op->getResult(0)).drop_front(),
        vectorize, io, [&](ValueRange bf) {
          FailureOr<SmallVector<Value>> values =
              emitLayerPosition(b, op, bf, io);
          if (failed(values))
            return failure();
          ArrayRef<Value> rest = *values;
          for (OpResult result : op->getResults()) {
            size_t entries = getStaticShape(result).front();
            writeBlades(b, loc, io, bf, 0, rest.take_front(entries),
                        result.getResultNumber());
            rest = rest.drop_front(entries);
          }
          return success();
        });
  }

  bool isReplicable() const override { return true; }

  /// Every entry along axis 0 of each result at (b, f) = `bf`, result after
  /// result (their positions are the same).
  virtual FailureOr<SmallVector<Value>>
  emitLayerPosition(OpBuilder &b, Operation *op, ValueRange bf,
                    KernelIO &io) const = 0;
};

/// The layer ops whose result is a multivector tensor, which a fused kernel
/// (the SGP layer's norm) recomputes a position at a time.
struct LayerProductEmitter : LayerEmitter {
  std::optional<int64_t> getBladeComputableAxis(Operation *) const override {
    return 0;
  }

  FailureOr<SmallVector<Value>> emitBlades(OpBuilder &b, Operation *op,
                                           ValueRange bf,
                                           KernelIO &io) const override {
    return emitLayerPosition(b, op, bf, io);
  }
};

/// The weights w[f, p] of operand `operand` at feature f = bf[1].
static PathWeightReader readPathWeights(KernelIO &io, unsigned operand,
                                        ValueRange bf) {
  Value f = bf[1];
  return PathWeightReader(io, operand, [f](Value path) {
    return SmallVector<Value>{f, path};
  });
}

/// weighted_product: x, y [2^n, B, F], w [F, P].
struct WeightedProductEmitter final : LayerProductEmitter {
  FailureOr<SmallVector<Value>> emitLayerPosition(OpBuilder &b, Operation *op,
                                                  ValueRange bf,
                                                  KernelIO &io) const override {
    auto product = cast<WeightedProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    BladeReader x(io, 0, bf, 0), y(io, 1, bf, 0);
    PathWeightReader w = readPathWeights(io, 2, bf);
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    return emitPathWeighted(
        b, loc, algebra,
        expandProduct(algebra, ProductTerms::Geometric, lhsBlades, rhsBlades),
        x, y, w);
  }
};

/// weighted_product_adjoint: cotangent, other [2^n, B, F], w [F, P].
struct WeightedProductAdjointEmitter final : LayerProductEmitter {
  FailureOr<SmallVector<Value>> emitLayerPosition(OpBuilder &b, Operation *op,
                                                  ValueRange bf,
                                                  KernelIO &io) const override {
    auto adjoint = cast<WeightedProductAdjointOp>(op);
    const Algebra &algebra = adjoint.getAlgebra().getAlgebra();
    bool ofLhs = adjoint.getOperand() == ProductOperand::lhs;
    BladeReader cotangent(io, 0, bf, 0), other(io, 1, bf, 0);
    PathWeightReader w = readPathWeights(io, 2, bf);
    auto [cotangentBlades, otherBlades] = getOperandBlades(op);
    return emitAdjoint(b, op->getLoc(), algebra,
                       expandAdjoint(algebra, ProductTerms::Geometric, ofLhs,
                                     cotangentBlades, otherBlades),
                       ofLhs, cotangent, other, &w);
  }
};

/// fc_product_pair_adjoint: pairs [groups, B, Fin], other [2^n, B, Fin]; a
/// result blade is the signed sum over its terms of the other operand's
/// blade times the term's group's pair cotangent, in Cayley-table order.
struct FcProductPairAdjointEmitter final : LayerProductEmitter {
  FailureOr<SmallVector<Value>> emitLayerPosition(OpBuilder &b, Operation *op,
                                                  ValueRange bf,
                                                  KernelIO &io) const override {
    auto adjoint = cast<FcProductPairAdjointOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = adjoint.getAlgebra().getAlgebra();
    bool ofLhs = adjoint.getOperand() == ProductOperand::lhs;
    // Axis 0 of the pairs holds path groups: read like blades.
    BladeReader pairs(io, 0, bf, 0), other(io, 1, bf, 0);
    SmallVector<Value> blades;
    for (ArrayRef<Term> bucket :
         expandAdjoint(algebra, ProductTerms::Geometric, ofLhs)) {
      SmallVector<SignedValue> terms;
      for (const Term &t : bucket) {
        Value factor = other.get(b, loc, ofLhs ? t.rhs : t.lhs);
        Value pair =
            pairs.get(b, loc, *algebra.pathGroupIndex(t.result, t.path));
        terms.push_back(
            {t.sign, arith::MulFOp::create(b, loc, factor, pair).getResult()});
      }
      blades.push_back(emitSignedSum(b, loc, terms));
    }
    return blades;
  }
};

/// fc_product_pair_adjoints: pairs [groups, B, Fin], x, y [2^n, B, Fin];
/// the blades of x's gradient, then y's. Each group's pair cotangent is read
/// once and serves every term of both: the terms run group by group, each
/// adding to a blade of each result.
struct FcProductPairAdjointsEmitter final : LayerEmitter {
  FailureOr<SmallVector<Value>> emitLayerPosition(OpBuilder &b, Operation *op,
                                                  ValueRange bf,
                                                  KernelIO &io) const override {
    auto adjoints = cast<FcProductPairAdjointsOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = adjoints.getAlgebra().getAlgebra();
    BladeReader pairs(io, 0, bf, 0), x(io, 1, bf, 0), y(io, 2, bf, 0);
    unsigned blades = algebra.numBlades();
    // The running sums of x's blades, then y's: added to as each group is
    // read, so that only they stay live, not every term.
    SmallVector<Value> sums(2 * blades);
    SmallVector<SmallVector<Term>> groups(algebra.numPathGroups());
    for (ArrayRef<Term> bucket :
         expandAdjoint(algebra, ProductTerms::Geometric, /*ofLhs=*/true))
      for (const Term &t : bucket)
        groups[*algebra.pathGroupIndex(t.result, t.path)].push_back(t);
    for (auto [group, groupTerms] : llvm::enumerate(groups)) {
      if (groupTerms.empty())
        continue;
      Value pair = pairs.get(b, loc, group);
      for (const Term &t : groupTerms) {
        Value ofX = arith::MulFOp::create(b, loc, y.get(b, loc, t.rhs), pair);
        Value ofY = arith::MulFOp::create(b, loc, x.get(b, loc, t.lhs), pair);
        addSignedTerm(b, loc, sums[t.lhs], {t.sign, ofX});
        addSignedTerm(b, loc, sums[blades + t.rhs], {t.sign, ofY});
      }
    }
    for (Value &sum : sums)
      if (!sum)
        sum = f32Constant(b, loc, 0.0);
    return sums;
  }
};

/// path_adjoint: cotangent, x, y [2^n, B, F] -> [P, ceil(B / c), F] for
/// batch_chunk c. Its axis 0 holds paths, so it has no blades to recompute in
/// a fused kernel. One thread per (chunk, f): with c = 1 the position's P
/// values; otherwise a loop over the chunk's batch elements, in increasing
/// order, that keeps P sums.
struct PathAdjointEmitter final : LayerEmitter {
  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    auto adjoint = cast<PathAdjointOp>(op);
    int64_t chunk = adjoint.getBatchChunk();
    if (chunk == 1)
      return LayerEmitter::emit(b, op, thread, io, vectorize);
    Location loc = op->getLoc();
    int64_t batch = getStaticShape(adjoint.getLhs())[1];
    unsigned paths = adjoint.getAlgebra().getAlgebra().numPaths();
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    // The loads are in the loop's body: no access group, which serves the
    // block it is opened in.
    return emitPositions(
        b, loc, thread, getStaticShape(op->getResult(0)).drop_front(),
        /*vectorize=*/false, io, [&](ValueRange chunkAndFeature) {
          Value first =
              arith::MulIOp::create(b, loc, chunkAndFeature[0], index(chunk));
          Value end = arith::MinUIOp::create(
              b, loc, arith::AddIOp::create(b, loc, first, index(chunk)),
              index(batch));
          SmallVector<Value> zeros(paths, f32Constant(b, loc, 0.0));
          LogicalResult bodyResult = success();
          auto loop = scf::ForOp::create(
              b, loc, first, end, index(1), zeros,
              [&](OpBuilder &nb, Location, Value element, ValueRange sums) {
                Value bf[] = {element, chunkAndFeature[1]};
                FailureOr<SmallVector<Value>> values =
                    emitLayerPosition(nb, op, bf, io);
                SmallVector<Value> next(sums);
                if (failed(values))
                  bodyResult = failure();
                else
                  for (auto [sum, value] : llvm::zip_equal(next, *values))
                    sum = arith::AddFOp::create(nb, loc, sum, value);
                scf::YieldOp::create(nb, loc, next);
              });
          if (failed(bodyResult))
            return failure();
          SmallVector<Value> results(loop.getResults());
          writeBlades(b, loc, io, chunkAndFeature, 0, results);
          return success();
        });
  }

  /// The P values of batch element and feature `bf`.
  FailureOr<SmallVector<Value>> emitLayerPosition(OpBuilder &b, Operation *op,
                                                  ValueRange bf,
                                                  KernelIO &io) const override {
    const Algebra &algebra = cast<PathAdjointOp>(op).getAlgebra().getAlgebra();
    BladeReader cotangent(io, 0, bf, 0), x(io, 1, bf, 0), y(io, 2, bf, 0);
    return emitPathAdjoint(b, op->getLoc(), algebra,
                           expandProduct(algebra, ProductTerms::Geometric),
                           cotangent, x, y);
  }
};

} // namespace

/// fc_product_pair_cotangents: a grouped GEMM, batch element q = (k, p)
/// the product of the cotangent's blade k [B, Fout] and the weights of path
/// p, transposed ([Fout, Fin]).
static GemmProblem getPairCotangentsProblem(Operation *op) {
  auto pairs = cast<FcProductPairCotangentsOp>(op);
  const Algebra &algebra = pairs.getAlgebra().getAlgebra();
  ArrayRef<int64_t> cotangent = getStaticShape(pairs.getCotangent());
  ArrayRef<int64_t> result = getStaticShape(pairs.getResult());
  GemmProblem problem;
  problem.batchShape = {result[0]};
  problem.lhsBatchShape = {cotangent[0]};
  problem.rhsBatchShape = {int64_t(algebra.numPaths())};
  for (const ::uta::ga::PathGroup &group : algebra.pathGroups()) {
    problem.lhsBatchOf.push_back(group.blade);
    problem.rhsBatchOf.push_back(group.path);
  }
  problem.m = result[1];
  problem.n = result[2];
  problem.k = cotangent[2];
  // B[o][f] = w[p][f][o]: stored [N][K] unless the weights are K-major.
  problem.transposeB = !pairs.getTransposeWeights();
  problem.elementType = pairs.getCotangent().getType().getElementType();
  return problem;
}

void mlir::uta::populateCliffordKernelEmitters(KernelEmitterRegistry &registry,
                                               const GemmTarget &target,
                                               bool remarks) {
  registry.add<BladewiseEmitter, GeometricProductOp, OuterProductOp,
               LeftContractionOp, ScalarProductOp, SandwichOp, ReverseOp,
               GradeInvolutionOp, ConjugateOp, GradeProjectOp, DualOp,
               PairGateOp, ProductAdjointOp, ScalarGateAdjointOp>();
  registry.add<ScalarGateEmitter, ScalarGateOp>();
  registry.add<PairGateFactorEmitter, PairGateFactorOp>();
  registry.add<WeightedProductEmitter, WeightedProductOp>();
  registry.add<WeightedProductAdjointEmitter, WeightedProductAdjointOp>();
  registry.add<PathAdjointEmitter, PathAdjointOp>();
  registry.add<FcProductPairAdjointEmitter, FcProductPairAdjointOp>();
  registry.add<FcProductPairAdjointsEmitter, FcProductPairAdjointsOp>();
  registry.add<GemmOpEmitter, FcProductPairCotangentsOp>(
      target, remarks, &getPairCotangentsProblem);
  addFcProductEmitter(registry, target, remarks);
  addFcProductAdjointEmitter(registry, target, remarks);
  addFcProductWeightGradientEmitter(registry, target, remarks);
  addGradeRmsNormEmitter(registry);
  addGradeRmsNormAdjointEmitter(registry);
}
