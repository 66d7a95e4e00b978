//===- GradeRmsNormAdjointEmitter.cpp - grade_rms_norm_adjoint's kernel ---===//
//
// g, x [2^n, B, F]: for each batch element and grade, two means over the
// features (of the grade's sum of x^2 and of its sum of g x), then
// dx = r (g - x r^2 c) on every blade of the grade. One block per batch
// element, in the two passes that grade_rms_norm's kernel also takes
// (GradeRmsNormCommon.h): both sums come from the same pass over the
// features and are added up in one tree.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"
#include "passes/Conversion/UTAToGPU/GradeRmsNormCommon.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace {

/// g, x [2^n, B, F], in the two passes of GradeRmsNormCommon.h: pass 1
/// sums, per grade, x^2 and g x over the grade's blades (2 x grades sums);
/// pass 2 writes every blade of dx. A thread keeps half as many features in
/// registers as grade_rms_norm's, each holding the blades of g and of x.
struct GradeRmsNormAdjointEmitter final
    : GradeNormEmitter<GradeRmsNormAdjointOp> {
  GradeRmsNormAdjointEmitter() : GradeNormEmitter(/*numInputs=*/2) {}

  void emitPasses(OpBuilder &b, KernelIO &io,
                  const GradeNormKernel &kernel) const override {
    const Algebra &algebra = kernel.algebra;
    Location loc = kernel.loc;
    unsigned grades = algebra.numGrades(), blades = algebra.numBlades();
    // A feature's values: every blade of g, then every blade of x.
    auto gOf = [&](ArrayRef<Value> values, unsigned blade) {
      return values[blade];
    };
    auto xOf = [&](ArrayRef<Value> values, unsigned blade) {
      return values[blades + blade];
    };

    // The sums: grades sums of x^2, then grades sums of g x.
    auto addBlade = [&](OpBuilder &nb, MutableArrayRef<Value> sums,
                        ArrayRef<Value> values, unsigned grade,
                        unsigned blade) {
      Value g = gOf(values, blade), x = xOf(values, blade);
      sums[grade] = arith::AddFOp::create(nb, loc, sums[grade],
                                          arith::MulFOp::create(nb, loc, x, x));
      sums[grades + grade] = arith::AddFOp::create(
          nb, loc, sums[grades + grade], arith::MulFOp::create(nb, loc, g, x));
    };
    SmallVector<Value> r, k;
    auto useTotals = [&](GradeNormTotals &totals) {
      Value one = f32Constant(b, loc, 1.0);
      for (unsigned grade = 0; grade < grades; ++grade) {
        // r = 1 / sqrt(mean + epsilon) with IEEE division and square root,
        // c = the mean of g x, k = r^2 c.
        r.push_back(arith::DivFOp::create(b, loc, one, totals.norm(grade)));
        Value c = totals.mean(grades + grade);
        Value rr = arith::MulFOp::create(b, loc, r.back(), r.back());
        k.push_back(arith::MulFOp::create(b, loc, rr, c));
      }
    };
    // dx = r (g - x k), k = r^2 c, with the grade's r and k.
    auto resultBlade = [&](OpBuilder &nb, ArrayRef<Value> values,
                           unsigned blade) -> Value {
      unsigned grade = algebra.grade(blade);
      Value centred = arith::SubFOp::create(
          nb, loc, gOf(values, blade),
          arith::MulFOp::create(nb, loc, xOf(values, blade), k[grade]));
      return arith::MulFOp::create(nb, loc, r[grade], centred);
    };

    emitGradeNormPasses(b, io, kernel,
                        {2 * grades, addBlade, useTotals, resultBlade});
  }
};

} // namespace

void mlir::uta::clifford_kernels::addGradeRmsNormAdjointEmitter(
    KernelEmitterRegistry &registry) {
  registry.add<GradeRmsNormAdjointEmitter, GradeRmsNormAdjointOp>();
}
