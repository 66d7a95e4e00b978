//===- CliffordOps.td - Ops of the clifford dialect --------*- tablegen -*-===//
//
// Every op of the clifford dialect. Shape rules are in the dialect description
// (CliffordDialect.td) and checked in CliffordOps.cpp; folds and
// canonicalizations are in CliffordFolds.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CLIFFORD_OPS_TD
#define CLIFFORD_OPS_TD

include "dialects/Clifford/IR/CliffordDialect.td"
include "dialects/Clifford/IR/CliffordInterfaces.td"
include "dialects/Interfaces/KernelOpInterface.td"
include "dialects/Interfaces/VjpOpInterface.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

/// The interface of the products, which record their operands' blade sets.
def Clifford_ProductInterface
    : DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface,
                                ["getOperandBladeSets"]>;

/// The interface of the layer ops: their weights are not multivectors.
def Clifford_LayerInterface
    : DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface,
                                ["getOperandBladeSets",
                                 "getMultivectorOperands"]>;

/// The ops whose vector-Jacobian product is defined (CliffordVjp.cpp).
def Clifford_Differentiable : DeclareOpInterfaceMethods<VjpOpInterface>;

/// The interface of the layer adjoints, which read weights or make paths.
def Clifford_AdjointInterface
    : DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface,
                                ["getMultivectorOperands"]>;

/// The interface of product_adjoint, which records the blade sets of its
/// cotangent and other operand.
def Clifford_ProductAdjointInterface
    : DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface,
                                ["getOperandBladeSets"]>;

/// The interface of weighted_product_adjoint: blade sets as product_adjoint,
/// weights as the layer ops.
def Clifford_WeightedAdjointInterface
    : DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface,
                                ["getOperandBladeSets",
                                 "getMultivectorOperands"]>;

/// x, y -> z with NumPy broadcasting over every axis but the blade axis.
class Clifford_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Clifford_Op<mnemonic, !listconcat([Pure, Clifford_ProductInterface,
                                         Clifford_Differentiable],
                                        traits)> {
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$lhs_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$rhs_blades);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

/// x -> y of the same type.
class Clifford_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Clifford_Op<mnemonic,
                  !listconcat([Pure, AllTypesMatch<["input", "result"]>,
                               DeclareOpInterfaceMethods<
                                   Clifford_MultivectorOpInterface>,
                               Clifford_Differentiable],
                              traits)> {
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$input,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $input attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

def Clifford_GeometricProductOp : Clifford_BinaryOp<"geometric_product",
                                                    [BladewiseKernelOp]> {
  let summary = "geometric product z = x y";
  let description = [{
    The geometric product of the multivectors `lhs` and `rhs`, blade by
    blade through the algebra's Cayley table: each pair of blades
    e_i e_j = sign * e_k contributes sign * x_i * y_j to z_k. The other axes
    broadcast NumPy-style (see the dialect description).

    ```mlir
    %z = clifford.geometric_product <3, 0, 0> %x, %y
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    // One rotor times a batch, blades last:
    %w = clifford.geometric_product <2, 0, 0> %r, %b {blade_axis = 1}
        : (tensor<1x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
    ```
  }];
}

def Clifford_OuterProductOp : Clifford_BinaryOp<"outer_product",
                                                [BladewiseKernelOp]> {
  let summary = "outer (wedge) product z = x ∧ y";
  let description = [{
    The outer product: the terms of the geometric product of a grade-a blade
    of `lhs` and a grade-b blade of `rhs` whose result has grade a + b; all
    other terms are dropped. Broadcasts like `geometric_product`.

    ```mlir
    %z = clifford.outer_product <3, 0, 0> %x, %y
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
  }];
}

def Clifford_LeftContractionOp : Clifford_BinaryOp<"left_contraction",
                                                   [BladewiseKernelOp]> {
  let summary = "left contraction z = x ⌋ y";
  let description = [{
    The left contraction: the terms of the geometric product of a grade-a
    blade of `lhs` and a grade-b blade of `rhs` whose result has grade
    b - a >= 0; all other terms are dropped. Broadcasts like
    `geometric_product`.

    ```mlir
    %z = clifford.left_contraction <3, 0, 0> %x, %y
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
  }];
}

def Clifford_ScalarProductOp : Clifford_BinaryOp<"scalar_product",
                                                 [OpaqueKernelOp]> {
  let summary = "scalar product s = <x y>_0";
  let description = [{
    The grade-0 part of the geometric product of `lhs` and `rhs`, as a plain
    tensor: the result has the broadcast shape of the operands except that
    its blade axis has size 1.

    ```mlir
    %s = clifford.scalar_product <3, 0, 0> %x, %y
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
    ```
  }];
}

def Clifford_SandwichOp : Clifford_Op<"sandwich",
                                      [Pure, BladewiseKernelOp,
                                       Clifford_ProductInterface,
                                       Clifford_Differentiable]> {
  let summary = "sandwich product y = r x reverse(r)";
  let description = [{
    Applies `rotor` (any multivector; the op does not require it to be
    normalised) to `input` by the sandwich product
    r x reverse(r). Both operands have the blade axis at `blade_axis` and
    broadcast over the other axes, so one rotor can act on a whole batch.

    ```mlir
    %y = clifford.sandwich <3, 0, 0> %r, %x
        : (tensor<8x1xf32>, tensor<8x1024xf32>) -> tensor<8x1024xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$rotor,
                       Clifford_Tensor:$input,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$rotor_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$input_blades);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $rotor `,` $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Involutions, projection, dual and gate
//===----------------------------------------------------------------------===//

def Clifford_ReverseOp : Clifford_UnaryOp<"reverse", [BladewiseKernelOp]> {
  let summary = "reverse: each grade-k blade times (-1)^(k(k-1)/2)";
  let description = [{
    Reverses the order of the basis vectors in every blade, which negates
    grades 2 and 3 (mod 4). Folds `reverse(reverse(x))` to `x`.

    ```mlir
    %r = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
    %s = clifford.reverse <3, 0, 0> %y {blade_axis = 1} : tensor<4x8xf32>
    ```
  }];
  let hasFolder = 1;
}

def Clifford_GradeInvolutionOp : Clifford_UnaryOp<"grade_involution",
                                                   [BladewiseKernelOp]> {
  let summary = "grade involution: each grade-k blade times (-1)^k";
  let description = [{
    Negates every odd-grade blade (the main involution x -> x*). Folds
    `grade_involution(grade_involution(x))` to `x`.

    ```mlir
    %y = clifford.grade_involution <3, 0, 0> %x : tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Clifford_ConjugateOp : Clifford_UnaryOp<"conjugate", [BladewiseKernelOp]> {
  let summary = "Clifford conjugate: each grade-k blade times (-1)^(k(k+1)/2)";
  let description = [{
    The composition of reverse and grade involution, which negates grades 1
    and 2 (mod 4). Folds `conjugate(conjugate(x))` to `x`.

    ```mlir
    %y = clifford.conjugate <3, 0, 0> %x : tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Clifford_GradeProjectOp : Clifford_UnaryOp<"grade_project",
                                                [BladewiseKernelOp]> {
  let summary = "keeps the listed grades and zeroes the rest";
  let description = [{
    Keeps the blades whose grade is in `grades` and sets every other blade to
    zero. `grades` is a non-empty, strictly ascending list of grades in
    0..n. Projecting onto all n + 1 grades folds to the input; a projection
    of a projection becomes one projection onto the common grades, or a zero
    constant when there are none.

    ```mlir
    %even = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x16xf32>
    // Generic form:
    %v = "clifford.grade_project"(%x)
        {algebra = #clifford.algebra<3, 0, 0>, grades = array<i64: 1>}
        : (tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$input,
                       DenseI64ArrayAttr:$grades,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let assemblyFormat = [{
    $algebra $input `grades` $grades attr-dict `:` type($input)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Clifford_DualOp : Clifford_UnaryOp<"dual", [BladewiseKernelOp]> {
  let summary = "dual y = x I^-1";
  let description = [{
    Multiplies by the inverse of the pseudoscalar I (the product of all basis
    vectors in ascending order) on the right. I is not invertible in a
    degenerate algebra (r > 0), so the verifier rejects those.

    ```mlir
    %y = clifford.dual <3, 0, 0> %x : tensor<8x16xf32>
    ```
  }];
}

def Clifford_ScalarGateOp : Clifford_UnaryOp<"scalar_gate",
                                              [BladewiseKernelOp]> {
  let summary = "scales every blade by the GELU gate of the scalar part";
  let description = [{
    y = x * Phi(s) where s is the scalar (grade-0) blade of x at the same
    position of the other axes and Phi(s) = 0.5 (1 + erf(s / sqrt 2)), the
    exact GELU gate.

    ```mlir
    %y = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4x16xf32>
    ```
  }];
}

def Clifford_PairGateOp : Clifford_Op<"pair_gate",
    [Pure, BladewiseKernelOp, AllTypesMatch<["lhs", "rhs", "result"]>,
     DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface>]> {
  let summary = "lhs scaled by the scalar gates of both operands";
  let description = [{
    y = lhs * Phi(s) * Phi(t) on every blade, where s and t are the scalar
    blades of lhs and rhs at the same position of the other axes and Phi is
    scalar_gate's gate: the gates of both operands of a pair product,
    carried by one. `fc_product(scalar_gate(x), scalar_gate(y), w)` equals
    `fc_product(pair_gate(x, y), y, w)`, which reads and writes one
    multivector tensor fewer; `uta-fold-scalar-gates` makes that rewrite
    where fc_product copies its operands from memory (or, on sm_90a in
    TF32, passes fc_product the gates as a `gate` operand from
    `clifford.pair_gate_factor`).

    ```mlir
    %y = clifford.pair_gate <3, 0, 0> %a, %b : tensor<8x4x16xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs attr-dict `:` type($lhs)
  }];
  let hasVerifier = 1;
}

def Clifford_PairGateFactorOp : Clifford_Op<"pair_gate_factor",
    [Pure, OpaqueKernelOp, AllTypesMatch<["lhs", "rhs"]>,
     DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface>]> {
  let summary = "the product of the scalar gates of two layer operands";
  let description = [{
    `lhs` and `rhs` are `[2^n, B, F]` (blade axis 0) and the result is
    `[B, F]`: `result[b, f] = Phi(s) * Phi(t)`, where s and t are the scalar
    blades `lhs[0, b, f]` and `rhs[0, b, f]` and Phi is scalar_gate's gate.
    It is the factor that `pair_gate` scales every blade by, and the `gate`
    operand of fc_product: `fc_product(scalar_gate(x), scalar_gate(y), w)`
    equals `fc_product(x, y, w) gate pair_gate_factor(x, y)`, whose extra
    kernel reads the scalar blades alone and writes an eighth of x (in
    Cl(3,0)). `uta-fold-scalar-gates` makes that rewrite where fc_product
    runs on the warp-specialised tensor-core schedule of sm_90a in TF32.

    ```mlir
    %g = clifford.pair_gate_factor <3, 0, 0> %x, %y
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Flash Clifford layers
//===----------------------------------------------------------------------===//

def Clifford_WeightedProductOp : Clifford_Op<"weighted_product",
                              [Pure, BladewiseKernelOp,
                               Clifford_LayerInterface,
                               Clifford_Differentiable]> {
  let summary = "geometric product with one learned weight per feature and path";
  let description = [{
    `lhs`, `rhs` and the result are `[2^n, B, F]` (blade axis 0);
    `weights` is `[F, P]` where P is the number of paths of the algebra
    (10 for Cl(2,0), 20 for Cl(3,0)). Each term x_i y_j of the geometric
    product, with blade i of grade gx, blade j of grade gy and the product
    landing on a blade of grade gz, is multiplied by
    `weights[f, path(gx, gz, gy)]`, where paths are all grade triples with a
    non-zero product, sorted by (gx, gz, gy).

    ```mlir
    %z = clifford.weighted_product <3, 0, 0> %x, %y, %w
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>)
        -> tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs, Clifford_Tensor:$weights,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$lhs_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$rhs_blades);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs `,` $weights attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_FcProductOp : Clifford_Op<"fc_product",
                                       [Pure, OpaqueKernelOp,
                                        Clifford_LayerInterface,
                                        Clifford_Differentiable]> {
  let summary = "fully connected geometric product over features";
  let description = [{
    `lhs` and `rhs` are `[2^n, B, Fin]` (blade axis 0), `weights` is
    `[P, Fin, Fout]` and the result is `[2^n, B, Fout]`. For each term of the
    geometric product, blade i of x times blade j of y = sign * blade k on
    path p = path(grade i, grade k, grade j), z_k accumulates
    sign * (x_i * y_j) @ weights[p], a matrix product over the features.

    With `transpose_weights`, `weights` is stored `[P, Fout, Fin]` (input
    features contiguous, the layout of a linear layer's `[out, in]` weight)
    and z_k accumulates sign * (x_i * y_j) @ transpose(weights[p]). On
    sm_90a the tensor cores read f32 weights only in that layout;
    `uta-tensor-core-layouts` rewrites an fc_product to it there.

    With a `gate` operand `[B, Fin]`, every pair product is scaled by the
    gate at its batch element and input feature: z_k accumulates
    sign * (gate * x_i * y_j) @ weights[p]. `clifford.pair_gate_factor`
    gives the gates of FCGP's scalar_gates in that form.

    ```mlir
    %z = clifford.fc_product <3, 0, 0> %x, %y, %w
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>)
        -> tensor<8x64x48xf32>
    %t = clifford.fc_product <3, 0, 0> %x, %y, %wt {transpose_weights = true}
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x48x32xf32>)
        -> tensor<8x64x48xf32>
    %u = clifford.fc_product <3, 0, 0> %x, %y, %w gate %g
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>,
           tensor<64x32xf32>) -> tensor<8x64x48xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs, Clifford_Tensor:$weights,
                       Optional<Clifford_Tensor>:$gate,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$lhs_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$rhs_blades,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_weights);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $lhs `,` $rhs `,` $weights (`gate` $gate^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_GradeRmsNormOp : Clifford_UnaryOp<"grade_rms_norm",
                                                 [OpaqueKernelOp]> {
  let summary = "RMS normalisation of every grade over the features";
  let description = [{
    `input` is `[2^n, B, F]` (blade axis 0). For each batch element b and
    grade g, the blades of grade g are divided by
    sqrt(mean over F of (sum over the blades of g of x^2) + epsilon).
    `epsilon` is a finite, non-negative f32 (default 1e-6).

    ```mlir
    %y = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x64x32xf32>
    %z = clifford.grade_rms_norm <3, 0, 0> %x {epsilon = 1.0e-05 : f32}
        : tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_Tensor:$input,
                       DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
}

//===----------------------------------------------------------------------===//
// Adjoints of the products (the gradient transformation's building blocks)
//===----------------------------------------------------------------------===//

def Clifford_ProductKind : I32EnumAttr<"ProductKind",
    "a bilinear product of the dialect", [
      I32EnumAttrCase<"geometric", 0>,
      I32EnumAttrCase<"outer", 1>,
      I32EnumAttrCase<"left_contraction", 2>,
      I32EnumAttrCase<"scalar", 3>]> {
  let cppNamespace = "::mlir::uta::clifford";
}

def Clifford_ProductOperand : I32EnumAttr<"ProductOperand",
    "an operand of a bilinear product", [
      I32EnumAttrCase<"lhs", 0>,
      I32EnumAttrCase<"rhs", 1>]> {
  let cppNamespace = "::mlir::uta::clifford";
}

def Clifford_ProductAdjointOp : Clifford_Op<"product_adjoint",
    [Pure, BladewiseKernelOp, Clifford_ProductAdjointInterface,
     Clifford_Differentiable]> {
  let summary = "adjoint of a product with respect to one operand";
  let description = [{
    For the product `z = product(x, y)` named by `product` (`geometric`,
    `outer`, `left_contraction` or `scalar`, with the same Cayley terms as
    the ops of those names), the gradient of `sum(cotangent * z)` with
    respect to one operand, the other held fixed: with `operand = lhs`
    (`other` is y) every term x_i y_j -> sign z_k adds
    `sign * cotangent_k * y_j` to blade i of the result; with
    `operand = rhs` (`other` is x) it adds `sign * x_i * cotangent_k` to
    blade j. Unlike the dual metric identities this holds in degenerate
    algebras too.

    `cotangent` has the product's result shape (blade axis of size 1 for
    `scalar`), `other` a multivector of the algebra; the other axes
    broadcast NumPy-style and the result has 2^n blades and the broadcast
    shape. The gradient transformation sums the result down to the
    operand's shape.

    `cotangent_blades` and `other_blades` (`#clifford.blades`, optional)
    are the blades of `cotangent` and `other` that may be non-zero, the
    same promise as the products' `lhs_blades` and `rhs_blades`:
    `clifford-simplify-grades` records them, and the lowering leaves out
    every term whose cotangent blade k or other blade (j for `lhs`, i for
    `rhs`) is outside them. The cotangent of a `scalar` product has one
    blade, the scalar, which every term of that product lands on: its
    `cotangent_blades` is `#clifford.blades<0>` or, when the cotangent is
    zero, `#clifford.blades<>`.

    ```mlir
    %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    // The cotangent is a bivector, y a vector: the gradient of x only
    // takes the terms e_k * e_j of those blades.
    %dv = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y
        {cotangent_blades = #clifford.blades<4, 5, 6>,
         other_blades = #clifford.blades<1, 2, 3>}
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra, Clifford_ProductKind:$product,
                       Clifford_ProductOperand:$operand,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$other,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$cotangent_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$other_blades);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $product $operand $cotangent `,` $other attr-dict `:`
    functional-type(operands, results)
  }];
  // The gradient transformation builds the op without blade sets.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result,
                   "::mlir::uta::clifford::AlgebraAttr":$algebra,
                   "::mlir::uta::clifford::ProductKindAttr":$product,
                   "::mlir::uta::clifford::ProductOperandAttr":$operand,
                   "::mlir::Value":$cotangent, "::mlir::Value":$other,
                   "::mlir::IntegerAttr":$blade_axis), [{
      build($_builder, $_state, result, algebra, product, operand, cotangent,
            other, blade_axis, /*cotangent_blades=*/nullptr,
            /*other_blades=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The Cayley terms of the product named by `product`.
    ::mlir::uta::ProductTerms getProductTerms();
  }];
}

def Clifford_WeightedProductAdjointOp
    : Clifford_Op<"weighted_product_adjoint",
                  [Pure, BladewiseKernelOp, Clifford_WeightedAdjointInterface,
                   Clifford_Differentiable]> {
  let summary = "adjoint of weighted_product with respect to lhs or rhs";
  let description = [{
    For `z = weighted_product(x, y, w)`, the gradient of
    `sum(cotangent * z)` with respect to x (`operand = lhs`, `other` is y)
    or y (`operand = rhs`, `other` is x): every term x_i y_j -> sign z_k on
    path p adds `sign * w[f, p] * cotangent_k * y_j` to blade i (or
    `sign * w[f, p] * x_i * cotangent_k` to blade j) at each batch element
    and feature f. Shapes as for `weighted_product`: `cotangent`, `other`
    and the result `[2^n, B, F]`, `weights` `[F, P]`.

    `cotangent_blades` and `other_blades` (optional) are the blades of
    `cotangent` and `other` that may be non-zero, as on `product_adjoint`:
    the lowering leaves out the terms of the blades outside them.

    ```mlir
    %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %y, %w
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>)
        -> tensor<8x64x32xf32>
    %dv = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %y, %w
        {cotangent_blades = #clifford.blades<0, 4, 5, 6>,
         other_blades = #clifford.blades<1, 2, 3>}
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>)
        -> tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_ProductOperand:$operand,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$other,
                       Clifford_Tensor:$weights,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       OptionalAttr<Clifford_BladeSetAttr>:$cotangent_blades,
                       OptionalAttr<Clifford_BladeSetAttr>:$other_blades);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $operand $cotangent `,` $other `,` $weights attr-dict `:`
    functional-type(operands, results)
  }];
  // The gradient transformation builds the op without blade sets.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result,
                   "::mlir::uta::clifford::AlgebraAttr":$algebra,
                   "::mlir::uta::clifford::ProductOperandAttr":$operand,
                   "::mlir::Value":$cotangent, "::mlir::Value":$other,
                   "::mlir::Value":$weights,
                   "::mlir::IntegerAttr":$blade_axis), [{
      build($_builder, $_state, result, algebra, operand, cotangent, other,
            weights, blade_axis, /*cotangent_blades=*/nullptr,
            /*other_blades=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
}

def Clifford_FcProductAdjointOp
    : Clifford_Op<"fc_product_adjoint",
                  [Pure, OpaqueKernelOp, Clifford_AdjointInterface,
                   Clifford_Differentiable]> {
  let summary = "adjoint of fc_product with respect to lhs or rhs";
  let description = [{
    For `z = fc_product(x, y, w)`, the gradient of `sum(cotangent * z)`
    with respect to x (`operand = lhs`, `other` is y) or y
    (`operand = rhs`, `other` is x). Every term x_i y_j -> sign z_k on path
    p adds, at each batch element b and input feature f,
    `sign * other_j[b, f] * (cotangent_k[b, :] . w[p, f, :])` to blade i of
    the result (`lhs`), or `sign * other_i[b, f] * (cotangent_k[b, :] .
    w[p, f, :])` to blade j (`rhs`): per term a matrix product over the
    output features, scaled by the other operand.

    `cotangent` is `[2^n, B, Fout]`, `other` and the result `[2^n, B, Fin]`,
    `weights` `[P, Fin, Fout]`, or `[P, Fout, Fin]` with
    `transpose_weights`, as on `fc_product`. Unlike the rule written in
    matrix products and weighted adjoints, no `[2^n, B, P Fin]`
    intermediate exists: on CUDA the op is one tensor-core GEMM per result
    blade whose K loop runs over the blade's terms, each term's product
    scaled by the other operand and summed in registers.

    ```mlir
    %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w
        : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>)
        -> tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_ProductOperand:$operand,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$other,
                       Clifford_Tensor:$weights,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_weights);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $operand $cotangent `,` $other `,` $weights attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_FcProductWeightGradientOp
    : Clifford_Op<"fc_product_weight_gradient",
                  [Pure, OpaqueKernelOp, Clifford_AdjointInterface,
                   Clifford_Differentiable]> {
  let summary = "gradient of fc_product with respect to its weights";
  let description = [{
    For `z = fc_product(x, y, w)`, the gradient of `sum(cotangent * z)`
    with respect to `w`: every term x_i y_j -> sign z_k on path p adds
    `sign * sum over b of x_i[b, f] * y_j[b, f] * cotangent_k[b, o]` to
    `result[p, f, o]`, a matrix product over the batch whose left side is
    the pair products of the path's terms.

    `cotangent` is `[2^n, B, Fout]`, `lhs` and `rhs` `[2^n, B, Fin]`, and
    the result `[P, Fin, Fout]`, or `[P, Fout, Fin]` with
    `transpose_weights` (the layout of fc_product's weights of that
    attribute). With `transpose_pairs`, `lhs` and `rhs` are given
    `[2^n, Fin, B]` (the batch contiguous, the layout in which the tensor
    cores read the pair products' factors as they lie;
    `uta-tensor-core-layouts` rewrites the op to it on sm_90a). With
    `transpose_cotangent` the cotangent is given `[2^n, Fout, B]`: with
    both, every operand is K-major (the batch contiguous), as sm_90a's
    warp-specialised fc_product kernel reads its own. On CUDA the
    op is one tensor-core GEMM per path, K running over the batch once per
    cotangent blade the path lands on, the pair products formed from x and
    y in registers: no `[2^n, B, P Fin]` intermediate exists, and every sum
    runs in a fixed order.

    With `batch_runs` = S > 1 the batch splits into S equal runs and the
    result gains a leading axis: `result[s]` is the gradient over rows
    `[s B / S, (s + 1) B / S)`, so that the sum over that axis is the
    gradient. `uta-split-k` makes it where a grid of one block per path and
    tile would leave SMs idle (a K running over the batch, few outputs),
    with a `uta.reduce_sum` that adds the runs in order; it has no VJP.

    ```mlir
    %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y
        : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>)
        -> tensor<20x32x48xf32>
    %dt = clifford.fc_product_weight_gradient <3, 0, 0> %g, %xt, %yt
        {transpose_pairs = true}
        : (tensor<8x64x48xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>)
        -> tensor<20x32x48xf32>
    %runs = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y
        {batch_runs = 4}
        : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>)
        -> tensor<4x20x32x48xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_weights,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_pairs,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_cotangent,
                       DefaultValuedAttr<I64Attr, "1">:$batch_runs);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $cotangent `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_FcProductPairCotangentsOp
    : Clifford_Op<"fc_product_pair_cotangents",
                  [Pure, OpaqueKernelOp, Clifford_AdjointInterface]> {
  let summary = "the cotangents of fc_product's grouped pair products";
  let description = [{
    fc_product sums, for each result blade k and path p, the signed pair
    products x_i y_j of the terms that land on (k, p) (a *path group*, see
    the algebra's `pathGroups`), then multiplies the sum by `w[p]`. This op
    gives the cotangent of every group's sum: `result[q, b, f]` is
    `cotangent_k[b, :] . w[p, f, :]` for group q = (k, p), a matrix
    product over the output features per group. Both adjoints of
    fc_product read it (`fc_product_pair_adjoint`), so the products run
    once per group instead of once per term and operand (44 instead of 128
    in Cl(3,0)).

    `cotangent` is `[2^n, B, Fout]`, `weights` `[P, Fin, Fout]`, or
    `[P, Fout, Fin]` with `transpose_weights`, and the result
    `[groups, B, Fin]`. On CUDA it is one batched GEMM of the engine whose
    batch element q reads the cotangent's blade k and the weights of path
    p. `uta-share-fc-adjoint-gemms` introduces it after differentiation; it
    has no gradient rule of its own.

    ```mlir
    %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w
        : (tensor<8x64x48xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$weights,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_weights);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $cotangent `,` $weights attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_FcProductPairAdjointOp
    : Clifford_Op<"fc_product_pair_adjoint",
                  [Pure, OpaqueKernelOp, Clifford_AdjointInterface]> {
  let summary = "fc_product_adjoint from the groups' cotangents";
  let description = [{
    For the cotangents `pairs` of fc_product's path groups
    (`fc_product_pair_cotangents`), the gradient with respect to x
    (`operand = lhs`, `other` is y) or y (`operand = rhs`, `other` is x):
    every term x_i y_j -> sign z_k on path p adds
    `sign * other_j[b, f] * pairs[q, b, f]` to blade i of the result
    (`lhs`), or `sign * other_i[b, f] * pairs[q, b, f]` to blade j (`rhs`),
    q the group (k, p). Equal to `fc_product_adjoint` of the cotangent and
    weights that gave `pairs`; element-wise, each thread one (b, f).

    `pairs` is `[groups, B, Fin]`, `other` and the result `[2^n, B, Fin]`.

    ```mlir
    %dx = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %t, %y
        : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_ProductOperand:$operand,
                       Clifford_Tensor:$pairs, Clifford_Tensor:$other,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $operand $pairs `,` $other attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_FcProductPairAdjointsOp
    : Clifford_Op<"fc_product_pair_adjoints",
                  [Pure, OpaqueKernelOp, Clifford_AdjointInterface,
                   AllTypesMatch<["lhs", "rhs", "lhs_gradient",
                                  "rhs_gradient"]>]> {
  let summary = "both of fc_product's adjoints from the groups' cotangents";
  let description = [{
    The two results of `fc_product_pair_adjoint` for one `pairs`, together:
    `lhs_gradient` is `fc_product_pair_adjoint lhs pairs, rhs` (the gradient
    with respect to x) and `rhs_gradient` is
    `fc_product_pair_adjoint rhs pairs, lhs` (with respect to y). One kernel
    reads each group's cotangent once for both (the pairs are 44 values per
    position in Cl(3,0), the largest tensor of fc_product's backward),
    where two kernels would read them twice. `uta-share-fc-adjoint-gemms`
    makes it where both adjoints of one fc_product are taken; a result that
    nothing reads canonicalizes it to the other's `fc_product_pair_adjoint`.

    `pairs` is `[groups, B, Fin]`; `lhs`, `rhs` and both results are
    `[2^n, B, Fin]`.

    ```mlir
    %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %y
        : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>)
        -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$pairs, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$lhs_gradient,
                      Clifford_Tensor:$rhs_gradient);
  let assemblyFormat = [{
    $algebra $pairs `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Clifford_PathAdjointOp : Clifford_Op<"path_adjoint",
    [Pure, OpaqueKernelOp, Clifford_AdjointInterface]> {
  let summary = "per-position adjoint of weighted_product's path weights";
  let description = [{
    For `z = weighted_product(x, y, w)`: `result[p, b, f]` is the sum over
    the terms x_i y_j -> sign z_k on path p of
    `sign * cotangent_k[b, f] * x_i[b, f] * y_j[b, f]`, so that the gradient
    of `sum(cotangent * z)` with respect to `w[f, p]` is the sum of
    `result[p, :, f]` over the batch (the gradient transformation reduces it
    with `uta.reduce_sum`, in a fixed order). `cotangent`, `lhs` and `rhs`
    are `[2^n, B, F]`; the result is `[P, B, F]`.

    With `batch_chunk = c` (default 1) the op already sums each run of c
    consecutive batch elements, in increasing order: the result is
    `[P, ceil(B / c), F]` and `result[p, j, f]` sums the batch elements
    `j c .. min(B, (j + 1) c) - 1`. A kernel then keeps P sums per thread
    instead of writing a P-times-larger tensor.

    ```mlir
    %t = clifford.path_adjoint <3, 0, 0> %g, %x, %y
        : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>)
        -> tensor<20x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$lhs,
                       Clifford_Tensor:$rhs,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis,
                       DefaultValuedAttr<I64Attr, "1">:$batch_chunk);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $cotangent `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Clifford_ScalarGateAdjointOp : Clifford_Op<"scalar_gate_adjoint",
    [Pure, BladewiseKernelOp, AllTypesMatch<["cotangent", "input", "result"]>,
     DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface>]> {
  let summary = "adjoint of scalar_gate";
  let description = [{
    For `y = scalar_gate(x)` = x Phi(s), s the scalar blade of x, the
    gradient of `sum(cotangent * y)` with respect to x, at every position of
    the other axes: `cotangent * Phi(s)` on every blade, plus
    `phi(s) * (sum over the blades of cotangent * x)` on the scalar blade,
    where Phi is the standard normal distribution function and phi its
    density. One kernel instead of the dozen elementwise ops and reductions
    of the composed rule.

    ```mlir
    %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x4x16xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$input,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $cotangent `,` $input attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Clifford_GradeRmsNormAdjointOp : Clifford_Op<"grade_rms_norm_adjoint",
    [Pure, OpaqueKernelOp, AllTypesMatch<["cotangent", "input", "result"]>,
     DeclareOpInterfaceMethods<Clifford_MultivectorOpInterface>]> {
  let summary = "adjoint of grade_rms_norm";
  let description = [{
    For `y = grade_rms_norm(x)` with x `[2^n, B, F]`, the gradient of
    `sum(cotangent * y)` with respect to x: for each batch element and grade,
    with r = (mean over F of the grade's sum of x^2 + epsilon)^-1/2 and
    c = mean over F of the grade's sum of cotangent * x, every blade of the
    grade gets `r * (cotangent - x * r^2 * c)`. `epsilon` as for
    `grade_rms_norm`. One kernel with two fixed-order reductions per batch
    element, as the forward op.

    ```mlir
    %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x : tensor<8x64x32xf32>
    ```
  }];
  let arguments = (ins Clifford_AlgebraAttr:$algebra,
                       Clifford_Tensor:$cotangent, Clifford_Tensor:$input,
                       DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon,
                       DefaultValuedAttr<I64Attr, "0">:$blade_axis);
  let results = (outs Clifford_Tensor:$result);
  let assemblyFormat = [{
    $algebra $cotangent `,` $input attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

#endif // CLIFFORD_OPS_TD
