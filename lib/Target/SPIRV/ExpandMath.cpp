//===- ExpandMath.cpp - Math ops without a SPIR-V lowering ----------------===//
//
// GLSL.std.450 has no erf, so convert-math-to-spirv cannot lower math.erf.
// MLIR's polynomial approximation of erf is made of ops that do lower
// (arith, math.absf, math.copysign, selects); its accuracy in f32 is tested
// by test/Target/SPIRV/erf-accuracy.mlir against libm's double erf.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASPIRVEXPANDMATHPASS
#include "lib/Target/SPIRV/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;

namespace {
struct UTASPIRVExpandMathPass final
    : uta::impl::UTASPIRVExpandMathPassBase<UTASPIRVExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // The pattern rewrites f32 erf only; kernels compute in f32.
    populatePolynomialApproximateErfPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
