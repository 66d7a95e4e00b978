//===- GradeRmsNormAdjointEmitter.cpp - grade_rms_norm_adjoint's kernel ---===//
//
// g, x [2^n, B, F]: for each batch element and grade, two means over the
// features (of the grade's sum of x^2 and of its sum of g x), then
// dx = r (g - x r^2 c) on every blade of the grade. One block per batch
// element, as grade_rms_norm's kernel (GradeRmsNormEmitter.cpp), whose plan
// and fixed-order reduction this one follows: both sums come from the same
// pass over the features and are added up in one tree.
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

/// The blades of g and of x at one feature.
struct FeatureBlades {
  SmallVector<Value> g, x;
};

/// g, x [2^n, B, F]: one block per batch element b, its threads striding
/// over the features one at a time. Pass 1 sums, per grade, x^2 and g x over
/// the grade's blades and the thread's features; the block adds the
/// threads' 2 x grades sums in a fixed tree in workgroup memory
/// (emitBlockTreeSums: the same bits on every run, no atomics); pass 2
/// writes every blade. The blades of g and x (read, or recomputed when
/// fused) stay in registers between the passes when a thread holds few
/// enough of them; otherwise pass 2 reads (recomputes) them again.
struct GradeRmsNormAdjointEmitter final : OpKernelEmitter {
  /// The most values a thread keeps in registers between the passes, as
  /// for grade_rms_norm (where a feature holds half as many).
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
    ArrayRef<int64_t> shape = getStaticShape(op->getOperand(1));
    int64_t blades = shape[0];
    Plan plan;
    plan.vectorize = vectorize;
    plan.features = shape[2];
    plan.group =
        std::clamp<int64_t>(llvm::PowerOf2Ceil(plan.features), 32, 256);
    plan.rounds = llvm::divideCeil(plan.features, plan.group);
    plan.resident = plan.rounds * 2 * blades <= kMaxResidentValues;
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
    auto adjoint = cast<GradeRmsNormAdjointOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = adjoint.getAlgebra().getAlgebra();
    unsigned grades = algebra.numGrades(), blades = algebra.numBlades();
    Plan plan = getPlan(op, vectorize);
    Value groupSize = arith::ConstantIndexOp::create(b, loc, plan.group);
    Value lane = arith::RemUIOp::create(b, loc, thread, groupSize);
    Value batch = arith::DivUIOp::create(b, loc, thread, groupSize);

    auto beginGroup = [&](OpBuilder &nb) {
      if (plan.vectorize)
        io.beginAccessGroup(nb, AccessLanes::single());
    };
    auto endGroup = [&](OpBuilder &nb) {
      if (plan.vectorize)
        io.endAccessGroup(nb, loc);
    };
    // Every blade of g, then every blade of x, at feature `f`.
    auto readFeature = [&](OpBuilder &nb, Value f) {
      beginGroup(nb);
      Value at[] = {batch, f};
      BladeReader g(io, 0, at, 0), x(io, 1, at, 0);
      FeatureBlades values;
      for (unsigned blade = 0; blade < blades; ++blade)
        values.g.push_back(g.get(nb, loc, blade));
      for (unsigned blade = 0; blade < blades; ++blade)
        values.x.push_back(x.get(nb, loc, blade));
      endGroup(nb);
      return values;
    };
    // The feature's blades as one list (g, then x), for scf.if and the
    // registers held between the passes, and back.
    auto flatten = [&](const FeatureBlades &values) {
      SmallVector<Value> all(values.g);
      llvm::append_range(all, values.x);
      return all;
    };
    auto unflatten = [&](ValueRange all) {
      return FeatureBlades{SmallVector<Value>(all.take_front(blades)),
                           SmallVector<Value>(all.drop_front(blades))};
    };
    // `sums` (grades sums of x^2, then grades sums of g x) plus the
    // feature's terms: each grade's blades in order.
    auto accumulate = [&](OpBuilder &nb, ValueRange sums,
                          const FeatureBlades &values) {
      SmallVector<Value> next(sums);
      for (unsigned grade = 0; grade < grades; ++grade)
        for (unsigned blade : algebra.bladesOfGrade(grade)) {
          Value g = values.g[blade], x = values.x[blade];
          next[grade] = arith::AddFOp::create(
              nb, loc, next[grade], arith::MulFOp::create(nb, loc, x, x));
          next[grades + grade] =
              arith::AddFOp::create(nb, loc, next[grades + grade],
                                    arith::MulFOp::create(nb, loc, g, x));
        }
      return next;
    };
    // dx = r (g - x k), k = r^2 c, with the grade's r and k.
    auto writeFeature = [&](OpBuilder &nb, Value f, const FeatureBlades &values,
                            ArrayRef<Value> r, ArrayRef<Value> k) {
      beginGroup(nb);
      for (unsigned blade = 0; blade < blades; ++blade) {
        unsigned grade = algebra.grade(blade);
        Value centred = arith::SubFOp::create(
            nb, loc, values.g[blade],
            arith::MulFOp::create(nb, loc, values.x[blade], k[grade]));
        Value dx = arith::MulFOp::create(nb, loc, r[grade], centred);
        Value index = arith::ConstantIndexOp::create(nb, loc, blade);
        io.write(nb, loc, 0, ValueRange{index, batch, f}, dx);
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

    // Pass 1: this thread's sums of x^2 and of g x, per grade.
    Value zero = f32Constant(b, loc, 0.0);
    SmallVector<Value> partial(2 * grades, zero);
    SmallVector<FeatureBlades> held;
    if (plan.resident) {
      for (int64_t round = 0; round < plan.rounds; ++round) {
        Value f = featureOfRound(round);
        FeatureBlades values;
        if (isFullRound(round)) {
          values = readFeature(b, f);
        } else {
          // A thread without a feature holds zeros, which add nothing.
          SmallVector<Type> types(2 * blades, b.getF32Type());
          auto read = scf::IfOp::create(b, loc, types, hasFeature(f),
                                        /*withElseRegion=*/true);
          OpBuilder thenBuilder = read.getThenBodyBuilder();
          scf::YieldOp::create(thenBuilder, loc,
                               flatten(readFeature(thenBuilder, f)));
          OpBuilder elseBuilder = read.getElseBodyBuilder();
          scf::YieldOp::create(elseBuilder, loc,
                               SmallVector<Value>(types.size(), zero));
          values = unflatten(read.getResults());
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

    // The block's totals: sums[i * group] for entry i of `partial`.
    int64_t group = plan.group;
    Value sums = emitBlockTreeSums(b, loc, io, lane, group, partial);
    auto total = [&](unsigned entry) -> Value {
      return memref::LoadOp::create(
          b, loc, sums,
          arith::ConstantIndexOp::create(b, loc, entry * group).getResult());
    };
    Value count = f32Constant(b, loc, static_cast<double>(plan.features));
    Value epsilon = arith::ConstantOp::create(b, loc, adjoint.getEpsilonAttr());
    Value one = f32Constant(b, loc, 1.0);
    SmallVector<Value> r, k;
    for (unsigned grade = 0; grade < grades; ++grade) {
      // r = 1 / sqrt(mean + epsilon) with IEEE division and square root,
      // c = the mean of g x, k = r^2 c.
      Value meanSquare = arith::DivFOp::create(b, loc, total(grade), count);
      Value norm = math::SqrtOp::create(
          b, loc, arith::AddFOp::create(b, loc, meanSquare, epsilon));
      r.push_back(arith::DivFOp::create(b, loc, one, norm));
      Value c = arith::DivFOp::create(b, loc, total(grades + grade), count);
      Value rr = arith::MulFOp::create(b, loc, r.back(), r.back());
      k.push_back(arith::MulFOp::create(b, loc, rr, c));
    }

    // Pass 2: every blade of dx.
    if (!plan.resident) {
      emitLoop(b, loc, lane, plan.features, plan.group, {},
               [&](OpBuilder &nb, Value f, ValueRange) {
                 writeFeature(nb, f, readFeature(nb, f), r, k);
                 return SmallVector<Value>();
               });
      return success();
    }
    for (int64_t round = 0; round < plan.rounds; ++round) {
      Value f = featureOfRound(round);
      if (isFullRound(round)) {
        writeFeature(b, f, held[round], r, k);
        continue;
      }
      auto write = scf::IfOp::create(b, loc, hasFeature(f),
                                     /*withElseRegion=*/false);
      OpBuilder thenBuilder = write.getThenBodyBuilder();
      writeFeature(thenBuilder, f, held[round], r, k);
    }
    return success();
  }
};

} // namespace

void mlir::uta::clifford_kernels::addGradeRmsNormAdjointEmitter(
    KernelEmitterRegistry &registry) {
  registry.add<GradeRmsNormAdjointEmitter, GradeRmsNormAdjointOp>();
}
