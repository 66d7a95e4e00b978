//===- GradeRmsNormEmitter.cpp - The kernel of clifford.grade_rms_norm ---===//
//
// x [2^n, B, F]: each grade of each batch element divided by the root mean
// square over the features of that grade's norms, in one block
// per batch element with a fixed-order reduction.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace {

/// x [2^n, B, F]: one block per batch element b, its threads striding over
/// the features, one feature at a time (as the position-wise clifford
/// kernels: emitPositions in CliffordExpansion.h says why not 4). A first
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
    int64_t features;
    /// Threads per block: a power of two covering the features, from a
    /// warp to 256.
    int64_t group;
    /// Features per thread (the last round may leave some threads without).
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
    plan.features = features;
    plan.group =
        std::clamp<int64_t>(llvm::PowerOf2Ceil(plan.features), 32, 256);
    plan.rounds = llvm::divideCeil(plan.features, plan.group);
    plan.resident = plan.rounds * blades <= kMaxResidentValues;
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

    // Vectorized, the accesses of a feature at constant innermost indices
    // (the path weights of a fused layer) form aligned vectors.
    auto beginGroup = [&](OpBuilder &nb) {
      if (plan.vectorize)
        io.beginAccessGroup(nb, AccessLanes::single());
    };
    auto endGroup = [&](OpBuilder &nb) {
      if (plan.vectorize)
        io.endAccessGroup(nb, loc);
    };
    // Every blade of x at feature `f`.
    auto readFeature = [&](OpBuilder &nb, Value f) {
      beginGroup(nb);
      Value at[] = {batch, f};
      BladeReader x(io, 0, at, 0);
      SmallVector<Value> values;
      for (unsigned blade = 0; blade < blades; ++blade)
        values.push_back(x.get(nb, loc, blade));
      endGroup(nb);
      return values;
    };
    // `sums` plus the squares of `values`: each grade's blades in order.
    auto accumulate = [&](OpBuilder &nb, ValueRange sums,
                          ArrayRef<Value> values) {
      SmallVector<Value> next(sums);
      for (unsigned g = 0; g < grades; ++g)
        for (unsigned blade : algebra.bladesOfGrade(g)) {
          Value v = values[blade];
          next[g] = arith::AddFOp::create(nb, loc, next[g],
                                          arith::MulFOp::create(nb, loc, v, v));
        }
      return next;
    };
    auto writeFeature = [&](OpBuilder &nb, Value f, ArrayRef<Value> values,
                            ArrayRef<Value> norms) {
      beginGroup(nb);
      for (unsigned blade = 0; blade < blades; ++blade) {
        Value scaled = arith::DivFOp::create(nb, loc, values[blade],
                                             norms[algebra.grade(blade)]);
        Value index = arith::ConstantIndexOp::create(nb, loc, blade);
        io.write(nb, loc, 0, ValueRange{index, batch, f}, scaled);
      }
      endGroup(nb);
    };
    auto featureOfRound = [&](int64_t round) -> Value {
      if (round == 0)
        return lane;
      return arith::AddIOp::create(
          b, loc, lane,
          arith::ConstantIndexOp::create(b, loc, round * plan.group));
    };
    // Whether every thread has a feature in round `round`.
    auto isFullRound = [&](int64_t round) {
      return (round + 1) * plan.group <= plan.features;
    };
    auto hasFeature = [&](Value f) -> Value {
      return arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, f,
          arith::ConstantIndexOp::create(b, loc, plan.features));
    };

    // Pass 1: this thread's sums of squares, per grade.
    Value zero = f32Constant(b, loc, 0.0);
    SmallVector<Value> partial(grades, zero);
    SmallVector<SmallVector<Value>> held;
    if (plan.resident) {
      for (int64_t round = 0; round < plan.rounds; ++round) {
        Value f = featureOfRound(round);
        SmallVector<Value> values;
        if (isFullRound(round)) {
          values = readFeature(b, f);
        } else {
          // A thread without a feature holds zeros, which add nothing.
          SmallVector<Type> types(blades, b.getF32Type());
          auto read = scf::IfOp::create(b, loc, types, hasFeature(f),
                                        /*withElseRegion=*/true);
          OpBuilder thenBuilder = read.getThenBodyBuilder();
          scf::YieldOp::create(thenBuilder, loc, readFeature(thenBuilder, f));
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
          emitLoop(b, loc, lane, plan.features, plan.group, partial,
                   [&](OpBuilder &nb, Value f, ValueRange acc) {
                     return accumulate(nb, acc, readFeature(nb, f));
                   });
      partial.assign(sums.begin(), sums.end());
    }

    // The block's totals, per grade: sums[g * group].
    int64_t group = plan.group;
    Value sums = emitBlockTreeSums(b, loc, io, lane, group, partial);

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
      emitLoop(b, loc, lane, plan.features, plan.group, {},
               [&](OpBuilder &nb, Value f, ValueRange) {
                 writeFeature(nb, f, readFeature(nb, f), norms);
                 return SmallVector<Value>();
               });
      return success();
    }
    for (int64_t round = 0; round < plan.rounds; ++round) {
      Value f = featureOfRound(round);
      if (isFullRound(round)) {
        writeFeature(b, f, held[round], norms);
        continue;
      }
      auto write = scf::IfOp::create(b, loc, hasFeature(f),
                                     /*withElseRegion=*/false);
      OpBuilder thenBuilder = write.getThenBodyBuilder();
      writeFeature(thenBuilder, f, held[round], norms);
    }
    return success();
  }
};

} // namespace

void mlir::uta::clifford_kernels::addGradeRmsNormEmitter(
    KernelEmitterRegistry &registry) {
  registry.add<GradeRmsNormEmitter, GradeRmsNormOp>();
}
