//===- Passes.td - UTA transformation passes ---------------*- tablegen -*-===//
//
// Passes that rewrite uta and clifford graphs, or the launch sequences
// convert-uta-to-gpu makes of them, in place (keep alphabetical).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TRANSFORMS_PASSES_TD
#define UTA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CliffordSimplifyGradesPass
    : Pass<"clifford-simplify-grades", "func::FuncOp"> {
  let summary = "Simplify clifford ops by the blades that may be non-zero";
  let description = [{
    Runs the grade analysis (passes/Analysis/GradeAnalysis.h), which knows
    for each multivector which blades may be non-zero, and rewrites:

    - `grade_project(x)` -> `x` when every blade x may have lies in the kept
      grades, and -> a zero constant when none does;
    - any clifford op whose result has no blade that may be non-zero (the
      outer product of two bivectors in Cl(3,0), the left contraction of a
      bivector into a vector, a product with a projection onto disjoint
      grades) -> a zero constant;
    - on the products (`geometric_product`, `outer_product`,
      `left_contraction`, `scalar_product`, `weighted_product`,
      `fc_product`, `sandwich`) it records the blades each operand may have
      as `lhs_blades`/`rhs_blades` (`rotor_blades`/`input_blades`), narrowing
      any set already there, so that the lowering leaves out the Cayley terms
      that multiply a blade known to be zero.

    A blade is known to be zero when the rules give 0 * y = 0, so the
    rewrites keep every result for finite inputs, up to the sign of a zero;
    where a left-out zero would have met an infinity or a NaN, the NaN of
    0 * inf is not made. Dead producers are left to the canonicalizer.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def UTADeduplicateKernelsPass
    : Pass<"uta-deduplicate-kernels", "ModuleOp"> {
  let summary = "Merge kernels that are the same but for their names";
  let description = [{
    Kernels of one `gpu.module` that are identical but for their names
    become one: the first of them is kept, every `gpu.launch_func` of the
    others (every reference to them outside the module) runs it instead,
    and the others are erased. A graph that repeats a layer outlines the
    same kernel once per repetition; merged, the target compiles, emits
    and loads it once, and launches it as often as before, each launch with
    its own buffers.

    Identical means: equal attributes but `sym_name` (the function type,
    `known_block_size`, `uta.tensor_maps`, argument attributes, ...), and
    bodies with the same ops in the same order, each with equal attributes
    and properties (so equal constants), result types, regions, blocks and
    block argument types, and operands that correspond. Locations do not
    count. Kernels are bucketed by a hash of that structure and compared op
    by op within a bucket, so a hash collision never merges two kernels.
    `convert-uta-to-gpu` already keeps one of each kind of kernel it
    outlines (the same test, passes/Analysis/IdenticalKernels.h); the
    pipelines run this pass for every target at the end of phase `gpu`,
    after `uta-merge-independent-launches`, for what became identical since:
    merged launches of identical parts, kernels the canonicalizer made
    equal.

    With `remarks`, each kept kernel that replaces others is reported, with
    how many it replaces.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each kernel that replaces identical ones as a remark">,
  ];
}

def UTADifferentiatePass : Pass<"uta-differentiate", "ModuleOp"> {
  let summary = "Build the gradient (vector-Jacobian product) of a function";
  let description = [{
    From a function `@f(inputs...) -> (results...)` builds
    `@f_vjp(inputs..., cotangents...) -> (gradients...)`: one cotangent per
    result, one gradient per differentiated input (`wrt`, default all), each
    the input's type. With `joint=true` it builds instead
    `@f_fwd_bwd(inputs..., cotangents...) -> (results..., gradients...)`,
    which computes the results and the gradients in one graph. The new
    function is public; `@f` becomes private.

    The backward is the forward graph followed by each op's VJP rule
    (VjpOpInterface), applied in reverse order to the ops that depend on a
    differentiated input and reach a result; a value used several times
    gets the sum of its cotangents. It is made of uta and clifford ops, so
    elimination, fusion and the GEMM engine treat it like any graph. A
    forward value that the backward reads is computed once in the joint
    function; whether a kernel recomputes it or reads it from memory is the
    fusion cost model's decision (its remarks say which). An input that no
    result depends on gets a zero gradient.

    Errors, at the function: no results, an argument index out of range or
    repeated, an argument or result that is not a floating-point tensor, an
    op without a VJP rule (at the op), a name that is taken.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to differentiate (default: the only public one)">,
    ListOption<"wrt", "wrt", "unsigned",
               "The arguments to differentiate with respect to, by index "
               "(default: all)">,
    Option<"joint", "joint", "bool", /*default=*/"false",
           "Build @f_fwd_bwd (results and gradients) instead of @f_vjp">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report the forward values that the backward reads">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect",
                           "::mlir::arith::ArithDialect"];
}

def UTAPartitionTrainingPass : Pass<"uta-partition-training", "ModuleOp"> {
  let summary = "Split a function's training step into a forward and a "
                "backward function, saving residuals between them";
  let description = [{
    From `@f(inputs...) -> (results...)` builds

      @f_forward(inputs...) -> (results..., residuals...)
      @f_backward(saved..., cotangents...) -> (gradients...)

    from the joint function of `uta-differentiate` (which stays available
    on its own): the forward computes the results and the residuals, the
    values it saves for the backward; the backward reads the saved values
    (arguments of the forward, its results, or residuals), one cotangent
    per result, and returns one gradient per differentiated argument
    (`wrt`, default all). It recomputes whatever else of the forward it
    needs.

    Which values are saved is a minimum cut over the forward values that
    the backward depends on: a value costs the bytes it holds between the
    two halves, the arguments and results nothing (the caller holds them);
    a value that is expensive to recompute (a GEMM, a reduction or norm, a
    product of more operations per element than a store and a reload cost)
    must be saved, or something computed from it. Of the cheapest cuts the
    one nearest the arguments is taken, so that ties recompute.

    `@f_forward` carries `uta.residuals` (how many of its results are
    residuals) and `@f_backward` carries `uta.saved`: for each saved
    argument, its index among the forward's arguments followed by its
    results. With `remarks`, each saved value is reported with its size and
    the reason, and each recomputed op. `@f` becomes private.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to partition (default: the only public one)">,
    ListOption<"wrt", "wrt", "unsigned",
               "The arguments to differentiate with respect to, by index "
               "(default: all)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report what is saved or recomputed, and why">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect",
                           "::mlir::arith::ArithDialect"];
}

def UTAFuseKernelsPass : Pass<"uta-fuse-kernels", "func::FuncOp"> {
  let summary = "Partition the graph into kernels (uta.fusion groups)";
  let description = [{
    Every op that is not recomputed inside a consumer becomes the root of a
    kernel. A producer is recomputed inside its consumer's kernel (cloned
    into the consumer's `uta.fusion` group) when one cost model allows it;
    the model asks each op for its fusion class (KernelOpInterface) and, for
    clifford ops, its algebra, blade axis and cost (MultivectorOpInterface):

    - pointwise producers (elementwise and layout ops, casts) fuse where the
      consumer reads each element a bounded number of times: uta consumers
      that do not broadcast them (never a matmul operand), and clifford
      consumers, which recompute them per blade they read; matmul and
      reductions fuse only into a pointwise consumer, as an epilogue;
    - clifford producers (gates, products, involutions, projections, dual,
      sandwich, weighted_product) fuse into clifford consumers of the same
      algebra and blade axis, a whole multivector at a time; fc_product,
      scalar_product and grade_rms_norm are never recomputed elsewhere;
    - a producer read R times per element (several uses in one consumer, a
      broadcast, the passes of grade_rms_norm, fc_product's output tiles)
      fuses when R - 1 extra computations cost less than a store, a reload
      and a launch (rough machine numbers, measured on an H200);
    - a producer with several consumers is duplicated into all of them when
      every one can recompute it and the recomputations cost less than its
      kernel, its store and its reloads, less the extra reads of its
      operands; otherwise it is stored once.

    With `policy=none` nothing fuses: every op is its own kernel. With
    `remarks=true` every decision is reported as a remark at the producer:
    what it fused into, or why it stayed in memory.
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"default\"",
           "Fusion policy: default or none">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each fusion decision">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "The kernels are for tensor cores (CUDA sm_80 and up), where "
           "fc_product runs on the GEMM engine, which copies x and y from "
           "memory: no producer fuses into it">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

def UTAFoldScalarGatesPass : Pass<"uta-fold-scalar-gates", "func::FuncOp"> {
  let summary = "Carry both scalar gates of an fc_product on one operand";
  let description = [{
    Rewrites `clifford.fc_product(scalar_gate(x), scalar_gate(y), w)`, FCGP's
    gated operands, into `fc_product(pair_gate(x, y), y, w)` where nothing
    else reads either gate: every pair product of fc_product multiplies a
    blade of each operand, so both gates can ride on x. One kernel over x
    and the scalar blade of y then replaces the two gate kernels, which
    read and wrote both multivector tensors. Run where fc_product copies its
    operands from memory (CUDA with tensor cores: the pipelines do, before
    `uta-fuse-kernels`); elsewhere the gates fuse into fc_product's kernel.

    With `gate-operand` (the pipelines set it for sm_90a with
    `--allow-tf32`), an fc_product
    with f32 operands whose input features make 16-byte rows (those run on
    the warp-specialised tensor-core schedule, which reads a gate tensor)
    becomes `fc_product(x, y, w) gate pair_gate_factor(x, y)` instead: the
    extra kernel reads only the scalar blades of x and y and writes one
    factor per batch element and input feature, and fc_product scales its
    pair products by them.
  }];
  let options = [
    Option<"gateOperand", "gate-operand", "bool", /*default=*/"false",
           "Pass the gates as fc_product's gate operand (from "
           "clifford.pair_gate_factor) where its input features make "
           "16-byte f32 rows">,
  ];
  let dependentDialects = ["::mlir::uta::clifford::CliffordDialect"];
}

def UTASplitReductionsPass : Pass<"uta-split-reductions", "func::FuncOp"> {
  let summary = "Reduce many elements to few outputs in two steps";
  let description = [{
    A reduction's kernel runs one thread per output element, looping over
    its reduced elements. Where `uta.reduce_sum` or `uta.reduce_max` sums a
    leading block of dimensions of at least 4096 elements into fewer than
    2^17 outputs (a bias gradient summed over blades and batch), this pass
    splits the reduced extent R into C runs of R / C elements (C a divisor
    of R near 2^17 / outputs, runs of at least 16): the reduction of the
    input reshaped to `[C, R / C, kept...]` over dimension 1, then of that
    over dimension 0, so that C times as many threads share the first
    step. Both steps run in index order, so the result is the same on every
    run, though rounded differently from a single sum. The pipelines run
    it first in the `fused` phase, for every target.
  }];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

def UTAMergeIndependentLaunchesPass
    : Pass<"uta-merge-independent-launches", "ModuleOp"> {
  let summary = "Run independent kernels launched in a row as one grid";
  let description = [{
    Where a host function launches two kernels in a row, with only
    allocations and ops without memory effects between them, and neither
    kernel writes a buffer the other accesses, the two launches become one
    launch of a new kernel: its first blocks run the first kernel's body,
    the others the second's, each on block ids counted from its own first
    block (and the grid size along x its own). Small memory-bound kernels
    spend part of their time ramping up and draining with the GPU partly
    idle; in one grid, the second one's blocks fill the first one's tail,
    and a launch is saved. The pipelines run it for CUDA, after
    `convert-uta-to-gpu`.

    Only simple kernels are merged: a body of one block of SIMT ops (arith,
    math, memref, vector, scf; gpu's thread and block ids, barriers,
    shuffles and dynamic shared memory), launched as a one-dimensional grid
    of constant size, with the same block size, without tensor maps,
    clusters or async tokens. The tensor-core GEMMs never qualify. The host
    function's arguments are taken to be distinct buffers, as the runtime
    passes them. The merged launch records the number of operands of each
    kernel it runs in `uta.launch_parts` (for `utac --stats`); merged
    kernels left without a launch are erased. Chains merge: a merged launch
    may take the next one in too, up to 8 kernels in one launch (each merge
    clones the parts merged so far, so that an unbounded run would cost
    time quadratic in its length, and one kernel as large as all of them).

    With `remarks`, each merge is reported at the later launch.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each merge as a remark">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def UTAShareFcAdjointGemmsPass
    : Pass<"uta-share-fc-adjoint-gemms", "func::FuncOp"> {
  let summary = "Run fc_product's adjoints as one GEMM per path group";
  let description = [{
    `clifford.fc_product_adjoint` runs one matrix product per term of each
    result blade: 64 per adjoint in Cl(3,0), 128 for both of an
    fc_product's inputs. Yet a term's product, the cotangent's blade k
    times the weights of path p, depends only on its path group (k, p), of
    which Cl(3,0) has 44, and both adjoints read the same ones. This pass
    rewrites each adjoint into `clifford.fc_product_pair_adjoint` of
    `clifford.fc_product_pair_cotangents` (one batched GEMM of the engine,
    a batch element per group), one pair-cotangents op per cotangent and
    weights in a block, shared by the adjoints that read them: a third of
    the tensor-core work, on the engine's fastest schedule, for a
    `[groups, B, Fin]` intermediate. Where a block takes exactly one adjoint
    of each operand, the two become one `clifford.fc_product_pair_adjoints`,
    whose kernel reads that intermediate once for both. The pipelines run
    it for CUDA targets with tensor cores, before `uta-fuse-kernels`; with
    `remarks`, each rewritten adjoint says how many it shares its GEMM with.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark at each adjoint rewritten">,
  ];
  let dependentDialects = ["::mlir::uta::clifford::CliffordDialect"];
}

def UTATensorCoreLayoutsPass : Pass<"uta-tensor-core-layouts", "func::FuncOp"> {
  let summary = "Store operands in the layouts sm_90a's tensor cores read";
  let description = [{
    wgmma, the tensor-core instruction of sm_90a, reads f32 operands from
    shared memory K-major only, and cannot transpose them. Run for that
    target (the pipelines do, before `uta-fuse-kernels`), this pass rewrites
    every `clifford.fc_product` with f32 weights `[P, Fin, Fout]` (Fin a
    multiple of 4) into the same product with `transpose_weights` of
    `uta.transpose(weights)` (`[P, Fout, Fin]`): the weights are transposed
    once, by a copy kernel, instead of by every block of the GEMM for every
    row tile it computes. Where the weights are already a transpose of that
    permutation, its input is used and no copy is made.

    With `round-to-tf32` (the pipelines set it for `allow-tf32`, where the
    tensor cores read the copied weights in plain TF32 and would truncate
    them) the copy rounds them to TF32 to nearest: products as accurate as
    rounded operands give, and weights whose dropped bits, zero, cost no
    power on their way through L2 and shared memory. The weight gradient's
    transposed cotangent, its kernel's B, is rounded alike, and so are
    `clifford.fc_product_pair_cotangents`' weights (a copy that only
    rounds).

    Likewise every `clifford.fc_product_weight_gradient` with f32 pairs
    whose batch makes 16-byte rows takes them and its cotangent
    batch-contiguous (`transpose_pairs`, `transpose_cotangent`, a
    `uta.transpose` of each): every operand is then K-major, and the op
    runs on fc_product's warp-specialised kernel (TMA, wgmma) instead of
    transposing x and y from shared memory element by element.
    Matmuls get their layouts from the GEMM engine (`uta-gemm-layouts`).
  }];
  let options = [
    Option<"roundToTf32", "round-to-tf32", "bool", /*default=*/"false",
           "Round the copied weights to TF32 (for plain TF32 products)">,
  ];
  let dependentDialects = ["::mlir::uta::UTADialect"];
}

#endif // UTA_TRANSFORMS_PASSES_TD
