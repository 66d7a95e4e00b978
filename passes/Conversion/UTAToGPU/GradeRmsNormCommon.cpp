//===- GradeRmsNormCommon.cpp - The two-pass kernel of the grade norms ----===//
//
// The plan, launch shape and passes that grade_rms_norm's and
// grade_rms_norm_adjoint's emitters share (GradeRmsNormCommon.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/GradeRmsNormCommon.h"

#include "passes/Analysis/GradeNormLayout.h"

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

int64_t GradeNormEmitterBase::getNumThreads(Operation *op,
                                            bool vectorize) const {
  return getStaticShape(op->getResult(0))[1] * getPlan(op, vectorize).group;
}

std::optional<int64_t>
GradeNormEmitterBase::getBlockSize(Operation *op, bool vectorize) const {
  return getPlan(op, vectorize).group;
}

GradeNormPlan GradeNormEmitterBase::getPlan(Operation *op,
                                            bool vectorize) const {
  // The layout is shared with the fusion cost model
  // (passes/Analysis/GradeNormLayout.h).
  return GradeNormPlan{getGradeNormLayout(op), vectorize};
}

GradeNormKernel GradeNormEmitterBase::getKernel(OpBuilder &b, Operation *op,
                                                Value thread,
                                                const Algebra &algebra,
                                                TypedAttr epsilon,
                                                bool vectorize) const {
  Location loc = op->getLoc();
  GradeNormPlan plan = getPlan(op, vectorize);
  Value groupSize = arith::ConstantIndexOp::create(b, loc, plan.group);
  Value lane = arith::RemUIOp::create(b, loc, thread, groupSize);
  Value batch = arith::DivUIOp::create(b, loc, thread, groupSize);
  return {loc, algebra, plan, epsilon, numInputs, lane, batch};
}

GradeNormTotals::GradeNormTotals(OpBuilder &b, Value sums,
                                 const GradeNormKernel &kernel)
    : b(b), loc(kernel.loc), sums(sums), group(kernel.plan.group) {
  count = f32Constant(b, loc, static_cast<double>(kernel.plan.features));
  epsilonValue = arith::ConstantOp::create(b, loc, kernel.epsilon);
}

Value GradeNormTotals::mean(unsigned entry) {
  // emitBlockTreeSums leaves entry i's total at i * group.
  Value total = memref::LoadOp::create(
      b, loc, sums,
      arith::ConstantIndexOp::create(b, loc, entry * group).getResult());
  return arith::DivFOp::create(b, loc, total, count);
}

Value GradeNormTotals::norm(unsigned entry) {
  Value meanSquare = mean(entry);
  return math::SqrtOp::create(
      b, loc, arith::AddFOp::create(b, loc, meanSquare, epsilonValue));
}

void mlir::uta::clifford_kernels::emitGradeNormPasses(
    OpBuilder &b, KernelIO &io, const GradeNormKernel &kernel,
    const GradeNormSteps &steps) {
  Location loc = kernel.loc;
  const GradeNormPlan &plan = kernel.plan;
  Value lane = kernel.lane;
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
  const Algebra &algebra = kernel.algebra;
  unsigned blades = algebra.numBlades();
  // Every blade of each input at feature `f`.
  auto readFeature = [&](OpBuilder &nb, Value f) {
    beginGroup(nb);
    Value at[] = {kernel.batch, f};
    SmallVector<Value> values;
    for (unsigned input = 0; input < kernel.numInputs; ++input) {
      BladeReader reader(io, input, at, 0);
      for (unsigned blade = 0; blade < blades; ++blade)
        values.push_back(reader.get(nb, loc, blade));
    }
    endGroup(nb);
    return values;
  };
  // `sums` plus what a feature's `values` add: each grade's blades in order.
  auto accumulate = [&](OpBuilder &nb, ValueRange sums,
                        ArrayRef<Value> values) {
    SmallVector<Value> next(sums);
    for (unsigned grade = 0; grade < algebra.numGrades(); ++grade)
      for (unsigned blade : algebra.bladesOfGrade(grade))
        steps.addBlade(nb, next, values, grade, blade);
    return next;
  };
  auto writeFeature = [&](OpBuilder &nb, Value f, ArrayRef<Value> values) {
    beginGroup(nb);
    for (unsigned blade = 0; blade < blades; ++blade) {
      Value result = steps.resultBlade(nb, values, blade);
      Value index = arith::ConstantIndexOp::create(nb, loc, blade);
      io.write(nb, loc, 0, ValueRange{index, kernel.batch, f}, result);
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

  // Pass 1: this thread's sums.
  Value zero = f32Constant(b, loc, 0.0);
  SmallVector<Value> partial(steps.numSums, zero);
  SmallVector<SmallVector<Value>> held;
  if (plan.resident) {
    for (int64_t round = 0; round < plan.rounds; ++round) {
      Value f = featureOfRound(round);
      SmallVector<Value> values;
      if (isFullRound(round)) {
        values = readFeature(b, f);
      } else {
        // A thread without a feature holds zeros, which add nothing.
        SmallVector<Type> types(plan.valuesPerFeature, b.getF32Type());
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
    ValueRange sums = emitLoop(b, loc, lane, plan.features, plan.group, partial,
                               [&](OpBuilder &nb, Value f, ValueRange acc) {
                                 SmallVector<Value> values = readFeature(nb, f);
                                 return accumulate(nb, acc, values);
                               });
    partial.assign(sums.begin(), sums.end());
  }

  // The block's totals, then what the kernel derives from them.
  Value sums = emitBlockTreeSums(b, loc, io, lane, plan.group, partial);
  GradeNormTotals totals(b, sums, kernel);
  steps.useTotals(totals);

  // Pass 2: every feature written from its values.
  if (!plan.resident) {
    emitLoop(b, loc, lane, plan.features, plan.group, {},
             [&](OpBuilder &nb, Value f, ValueRange) {
               SmallVector<Value> values = readFeature(nb, f);
               writeFeature(nb, f, values);
               return SmallVector<Value>();
             });
    return;
  }
  for (int64_t round = 0; round < plan.rounds; ++round) {
    Value f = featureOfRound(round);
    if (isFullRound(round)) {
      writeFeature(b, f, held[round]);
      continue;
    }
    auto write = scf::IfOp::create(b, loc, hasFeature(f),
                                   /*withElseRegion=*/false);
    OpBuilder thenBuilder = write.getThenBodyBuilder();
    writeFeature(thenBuilder, f, held[round]);
  }
}
