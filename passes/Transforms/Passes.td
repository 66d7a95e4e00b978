//===- Passes.td - UTA transformation passes --------------*- tablegen -*-===//
//
// Passes that rewrite uta and clifford graphs in place (keep alphabetical).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TRANSFORMS_PASSES_TD
#define UTA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UtaFuseKernelsPass : Pass<"uta-fuse-kernels", "func::FuncOp"> {
  let summary = "Partition the graph into kernels (uta.fusion groups)";
  let description = [{
    Every op that is not recomputed inside a consumer becomes the root of a
    kernel. A producer is recomputed inside its consumer's kernel (moved into
    the consumer's `uta.fusion` group) when one cost model allows it:

    - it has exactly one use, so nothing else needs it in memory;
    - uta producers: the producer can compute any single element on its own
      (elementwise and layout ops, casts; matmul and reductions only into a
      pointwise consumer, as an epilogue), and the consumer reads each of its
      elements once (no broadcast of it, not a matmul operand, never a
      reduction inside another reduction);
    - clifford producers (gates, products, involutions, projections, dual,
      sandwich, weighted_product) fuse into clifford consumers of the same
      algebra and blade axis when recomputing them costs less than a store,
      a reload and a launch (rough machine numbers, measured on an H200);
      they are recomputed a whole multivector at a time. fc_product and
      grade_rms_norm are never recomputed inside another kernel.

    With `policy=none` nothing fuses: every op is its own kernel.
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"default\"",
           "Fusion policy: default or none">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

#endif // UTA_TRANSFORMS_PASSES_TD
