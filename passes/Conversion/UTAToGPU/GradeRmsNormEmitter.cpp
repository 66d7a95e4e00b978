//===- GradeRmsNormEmitter.cpp - The kernel of clifford.grade_rms_norm ----===//
//
// x [2^n, B, F]: each grade of each batch element divided by the root mean
// square over the features of that grade's norms, in one block
// per batch element with a fixed-order reduction.
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

/// x [2^n, B, F], in the two passes of GradeRmsNormCommon.h: pass 1 sums
/// the squares of each grade's blades, pass 2 divides every blade by
/// sqrt(mean + epsilon) of its grade.
struct GradeRmsNormEmitter final : GradeNormEmitter<GradeRmsNormOp> {
  GradeRmsNormEmitter() : GradeNormEmitter(/*numInputs=*/1) {}

  void emitPasses(OpBuilder &b, KernelIO &io,
                  const GradeNormKernel &kernel) const override {
    const Algebra &algebra = kernel.algebra;
    Location loc = kernel.loc;
    // One sum per grade: its blades' squares.
    auto addBlade = [&](OpBuilder &nb, MutableArrayRef<Value> sums,
                        ArrayRef<Value> values, unsigned grade,
                        unsigned blade) {
      Value v = values[blade];
      sums[grade] = arith::AddFOp::create(nb, loc, sums[grade],
                                          arith::MulFOp::create(nb, loc, v, v));
    };
    SmallVector<Value> norms;
    auto useTotals = [&](GradeNormTotals &totals) {
      for (unsigned grade = 0; grade < algebra.numGrades(); ++grade)
        norms.push_back(totals.norm(grade));
    };
    auto resultBlade = [&](OpBuilder &nb, ArrayRef<Value> values,
                           unsigned blade) -> Value {
      return arith::DivFOp::create(nb, loc, values[blade],
                                   norms[algebra.grade(blade)]);
    };

    emitGradeNormPasses(
        b, io, kernel, {algebra.numGrades(), addBlade, useTotals, resultBlade});
  }
};

} // namespace

void mlir::uta::clifford_kernels::addGradeRmsNormEmitter(
    KernelEmitterRegistry &registry) {
  registry.add<GradeRmsNormEmitter, GradeRmsNormOp>();
}
