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

    - the producer can compute any single element on its own (elementwise and
      layout ops, casts; matmul and reductions as epilogue producers);
    - it has exactly one use, so nothing else needs it in memory;
    - the consumer reads each of its elements once: a pointwise consumer that
      does not broadcast it, or a reduction over it. A matmul re-reads its
      operands, so its producers stay separate kernels; matmul and reduction
      producers fuse only into pointwise consumers (epilogues), never into
      another reduction, which would serialize their parallel work.

    With `policy=none` nothing fuses: every op is its own kernel.
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"default\"",
           "Fusion policy: default or none">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

#endif // UTA_TRANSFORMS_PASSES_TD
