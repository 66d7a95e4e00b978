//===- UTAOps.td - Ops of the uta dialect ------------------*- tablegen -*-===//
//
// Every op of the uta dialect. Shape rules live in UTAShapes.cpp, verifiers and
// builders in UTAOps.cpp, folds and canonicalization patterns in
// UTAFolds.cpp.
//
// Custom syntax conventions: ops with several operands print
// `functional-type(operands, results)`; single-operand ops print `: T` when
// the result has the operand's type and `: T -> U` otherwise. Index
// attributes that every instance has are spelled inline (`dims [1]`,
// `dim 1`, `axis 1`, the permutation `[1, 0]`); flags and attributes with a
// default stay in the attribute dictionary and are elided when default.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_OPS_TD
#define UTA_OPS_TD

include "dialects/UTA/IR/UTADialect.td"
include "dialects/Interfaces/KernelOpInterface.td"
include "dialects/Interfaces/VjpOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Every computing op of the dialect defines its vector-Jacobian product
/// (UTAVjp.cpp).
def UTA_Differentiable : DeclareOpInterfaceMethods<VjpOpInterface>;

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

class UTA_BinaryOp<string mnemonic, list<Trait> traits = []>
    : UTA_Op<mnemonic, !listconcat([Pure, UTA_Elementwise, UTA_Differentiable],
                                traits)> {
  let arguments = (ins UTA_Tensor:$lhs, UTA_Tensor:$rhs);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    // Infers the result type: the broadcast shape, lhs's element type.
    OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs)>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyBroadcastingBinaryOp(*this);
    }
    void $cppClass::build(::mlir::OpBuilder &builder,
                          ::mlir::OperationState &state, ::mlir::Value lhs,
                          ::mlir::Value rhs) {
      build(builder, state, inferBroadcastType(lhs, rhs), lhs, rhs);
    }
  }];
}

def UTA_AddOp
    : UTA_BinaryOp<"add",
                   [Commutative, PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise addition with NumPy broadcasting";
  let description = [{
    `c = a + b` elementwise in IEEE arithmetic of the element type. The
    operand shapes broadcast NumPy-style: they are aligned at their last
    dimension, and each pair of sizes must be equal or contain a 1; the
    result has the broadcast shape. Operands and result share one element
    type (f32, f16 or bf16).

    ```mlir
    %c = uta.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let hasCanonicalizer = 1;
}

def UTA_SubOp : UTA_BinaryOp<"sub", [PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise subtraction with NumPy broadcasting";
  let description = [{
    `c = a - b` elementwise; broadcasting and types as for `uta.add`.

    ```mlir
    %c = uta.sub %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let hasCanonicalizer = 1;
}

def UTA_MulOp
    : UTA_BinaryOp<"mul",
                   [Commutative, PointwiseKernelOp<1>, UTA_ZeroAbsorbing]> {
  let summary = "elementwise multiplication with NumPy broadcasting";
  let description = [{
    `c = a * b` elementwise; broadcasting and types as for `uta.add`.

    ```mlir
    %c = uta.mul %a, %b : (tensor<2x4x8xf16>, tensor<4x1xf16>) -> tensor<2x4x8xf16>
    ```
  }];
  let hasCanonicalizer = 1;
}

def UTA_DivOp : UTA_BinaryOp<"div", [PointwiseKernelOp<4>]> {
  let summary = "elementwise division with NumPy broadcasting";
  let description = [{
    `c = a / b` elementwise (IEEE: x / 0 is ±inf or NaN); broadcasting and
    types as for `uta.add`.

    ```mlir
    %c = uta.div %a, %b : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    ```
  }];
}

def UTA_MaxOp
    : UTA_BinaryOp<"max",
                   [Commutative, PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise maximum with NumPy broadcasting, NaN-propagating";
  let description = [{
    `c = max(a, b)` elementwise; broadcasting and types as for `uta.add`.
    NaN propagates: if either element is NaN the result is NaN (unlike C's
    `fmax`). -0.0 counts as less than +0.0, so `max(-0.0, +0.0)` is +0.0 in
    either order (the semantics of `arith.maximumf`, IEEE 754-2019
    `maximum`).

    ```mlir
    %c = uta.max %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def UTA_MinOp
    : UTA_BinaryOp<"min",
                   [Commutative, PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise minimum with NumPy broadcasting, NaN-propagating";
  let description = [{
    `c = min(a, b)` elementwise; broadcasting and types as for `uta.add`.
    NaN propagates: if either element is NaN the result is NaN. -0.0 counts
    as less than +0.0 (the semantics of `arith.minimumf`, IEEE 754-2019
    `minimum`).

    ```mlir
    %c = uta.min %a, %b : (tensor<8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
    ```
  }];
}

def UTA_PowOp : UTA_BinaryOp<"pow", [PointwiseKernelOp<16>]> {
  let summary = "elementwise power with NumPy broadcasting";
  let description = [{
    `c = a^b` elementwise, with the special cases of C's `powf`:
    `pow(x, ±0)` is 1 for every x (NaN included), `pow(1, y)` is 1 for every
    y, a negative finite base with a non-integer exponent gives NaN, and
    `pow(±0, y)` is ±inf for a negative odd integer y, +inf for other
    negative y. Broadcasting and types as for `uta.add`.

    ```mlir
    %c = uta.pow %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

class UTA_UnaryOp<string mnemonic, list<Trait> traits = []>
    : UTA_Op<mnemonic, !listconcat([Pure, UTA_Elementwise,
                                    SameOperandsAndResultType,
                                    UTA_Differentiable], traits)> {
  let arguments = (ins UTA_Tensor:$input);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def UTA_NegOp : UTA_UnaryOp<"neg", [PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise negation";
  let description = [{
    `y = -x`: flips the sign bit, so `neg(+0.0)` is -0.0.

    ```mlir
    %y = uta.neg %x : tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def UTA_AbsOp : UTA_UnaryOp<"abs", [PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise absolute value";
  let description = [{
    `y = |x|`: clears the sign bit.

    ```mlir
    %y = uta.abs %x : tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def UTA_SignOp : UTA_UnaryOp<"sign", [PointwiseKernelOp<2>, UTA_ZeroPreserving]> {
  let summary = "elementwise sign";
  let description = [{
    `y = 1` where `x > 0`, `y = -1` where `x < 0`, and `y = x` where `x` is
    a zero (of either sign) or NaN, like `torch.sign`. The gradients of
    `abs`, `relu`, `max`, `min` and `reduce_max` are built from it.

    ```mlir
    %y = uta.sign %x : tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def UTA_ExpOp : UTA_UnaryOp<"exp", [PointwiseKernelOp<8>]> {
  let summary = "elementwise natural exponential";
  let description = [{
    `y = e^x`.

    ```mlir
    %y = uta.exp %x : tensor<4xf32>
    ```
  }];
}

def UTA_LogOp : UTA_UnaryOp<"log", [PointwiseKernelOp<8>]> {
  let summary = "elementwise natural logarithm";
  let description = [{
    `y = ln(x)`: -inf at ±0, NaN for x < 0.

    ```mlir
    %y = uta.log %x : tensor<4xf32>
    ```
  }];
}

def UTA_SqrtOp : UTA_UnaryOp<"sqrt", [PointwiseKernelOp<4>, UTA_ZeroPreserving]> {
  let summary = "elementwise square root";
  let description = [{
    `y = sqrt(x)`: NaN for x < 0, and `sqrt(-0.0)` is -0.0.

    ```mlir
    %y = uta.sqrt %x : tensor<4xf32>
    ```
  }];
}

def UTA_RsqrtOp : UTA_UnaryOp<"rsqrt", [PointwiseKernelOp<4>]> {
  let summary = "elementwise reciprocal square root";
  let description = [{
    `y = 1 / sqrt(x)`: +inf at +0.0, -inf at -0.0, NaN for x < 0.

    ```mlir
    %y = uta.rsqrt %x : tensor<4xf32>
    ```
  }];
}

def UTA_ErfOp
    : UTA_UnaryOp<"erf", [PointwiseKernelOp<20>, UTA_ZeroPreserving]> {
  let summary = "elementwise error function";
  let description = [{
    `y = erf(x) = 2 / sqrt(pi) * integral from 0 to x of e^(-t^2) dt`: odd,
    within (-1, 1), `erf(±0)` is ±0 and `erf(±inf)` is ±1.

    ```mlir
    %y = uta.erf %x : tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def UTA_TanhOp : UTA_UnaryOp<"tanh", [PointwiseKernelOp<12>, UTA_ZeroPreserving]> {
  let summary = "elementwise hyperbolic tangent";
  let description = [{
    `y = tanh(x)`.

    ```mlir
    %y = uta.tanh %x : tensor<4xf32>
    ```
  }];
}

def UTA_SigmoidOp : UTA_UnaryOp<"sigmoid", [PointwiseKernelOp<10>]> {
  let summary = "elementwise logistic sigmoid";
  let description = [{
    `y = 1 / (1 + e^-x)`.

    ```mlir
    %y = uta.sigmoid %x : tensor<4xf32>
    ```
  }];
}

def UTA_ReluOp : UTA_UnaryOp<"relu", [PointwiseKernelOp<1>, UTA_ZeroPreserving]> {
  let summary = "elementwise rectified linear unit";
  let description = [{
    `y = max(x, +0.0)` with the rules of `uta.max`: NaN stays NaN and
    `relu(-0.0)` is +0.0.

    ```mlir
    %y = uta.relu %x : tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def UTA_SiluOp : UTA_UnaryOp<"silu", [PointwiseKernelOp<12>, UTA_ZeroPreserving]> {
  let summary = "elementwise SiLU (swish)";
  let description = [{
    `y = x * sigmoid(x)`, computed as one op (never decomposed).

    ```mlir
    %y = uta.silu %x : tensor<4xf32>
    ```
  }];
}

def UTA_GeluOp : UTA_UnaryOp<"gelu", [PointwiseKernelOp<20>, UTA_ZeroPreserving]> {
  let summary = "elementwise GELU, exact or tanh-approximated";
  let description = [{
    With `tanh_approximation = false` (the default), the exact form
    `y = 0.5 * x * (1 + erf(x / sqrt(2)))`. With `tanh_approximation = true`,
    `y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.

    ```mlir
    %y = uta.gelu %x : tensor<4xf32>
    %z = uta.gelu %x {tanh_approximation = true} : tensor<4xf32>
    ```
  }];
  let arguments = (ins UTA_Tensor:$input,
                       DefaultValuedAttr<BoolAttr, "false">:$tanh_approximation);
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

def UTA_MatmulOp : UTA_Op<"matmul", [Pure, AnchorKernelOp, UTA_Differentiable]> {
  let summary = "batched matrix multiplication with broadcast batch dims";
  let description = [{
    `lhs` is [..., M, K] (or [..., K, M] when `transpose_a` is true) and
    `rhs` is [..., K, N] (or [..., N, K] when `transpose_b` is true); the
    result is [..., M, N] with
    `result[..., m, n] = sum over k of lhs[..., m, k] * rhs[..., k, n]`.
    Both ranks are at least 2. The batch dimensions (all but the last two)
    broadcast NumPy-style, so a rank-2 rhs applies to every matrix of a
    rank-3 lhs and vice versa. Operands and result share one element type;
    f16 and bf16 products accumulate in f32 and round once at the end.

    ```mlir
    %c = uta.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %d = uta.matmul %a3, %w {transpose_b = true}
        : (tensor<2x4x8xbf16>, tensor<16x8xbf16>) -> tensor<2x4x16xbf16>
    %e = uta.matmul %x, %g {transpose_a = true}
        : (tensor<64x4xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
    ```

    A transpose of an operand's last two axes folds into the flag
    (canonicalization), so a weight gradient `x^T g` reads `x` as stored.
  }];
  let arguments = (ins UTA_Tensor:$lhs, UTA_Tensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let builders = [
    // Infers the result type with inferMatmulShape.
    OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs,
                   CArg<"bool", "false">:$transposeB,
                   CArg<"bool", "false">:$transposeA)>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class UTA_ReduceOp<string mnemonic>
    : UTA_Op<mnemonic, [Pure, AnchorKernelOp, UTA_Differentiable]> {
  let arguments = (ins UTA_F32Tensor:$input, DenseI64ArrayAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs UTA_F32Tensor:$result);
  let assemblyFormat = [{
    $input `dims` $dims attr-dict `:` type($input) `->` type($result)
  }];
  let builders = [
    // Infers the result type with inferReduceShape.
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$dims,
                   CArg<"bool", "false">:$keepDims)>
  ];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyReduceOp(*this);
    }
    void $cppClass::build(::mlir::OpBuilder &builder,
                          ::mlir::OperationState &state, ::mlir::Value input,
                          ::llvm::ArrayRef<int64_t> dims, bool keepDims) {
      build(builder, state, inferReduceType(input, dims, keepDims), input,
            dims, keepDims);
    }
  }];
}

def UTA_ReduceSumOp : UTA_ReduceOp<"reduce_sum"> {
  let summary = "sum over dimensions";
  let description = [{
    Sums `input` over the dimensions in `dims` (non-empty, non-negative, in
    range, unique, ascending). The reduced dimensions are dropped from the
    result, or kept with size 1 when `keep_dims` is true. f32 only.

    ```mlir
    %s = uta.reduce_sum %x dims [1] : tensor<4x8xf32> -> tensor<4xf32>
    %k = uta.reduce_sum %x dims [0, 1] {keep_dims = true}
        : tensor<4x8xf32> -> tensor<1x1xf32>
    ```
  }];
}

def UTA_ReduceMaxOp : UTA_ReduceOp<"reduce_max"> {
  let summary = "maximum over dimensions, NaN-propagating";
  let description = [{
    The maximum of `input` over `dims`, with the rules of `uta.max`: a NaN
    among the reduced elements makes the result NaN. `dims` and `keep_dims`
    as for `uta.reduce_sum`. f32 only.

    ```mlir
    %m = uta.reduce_max %x dims [0] : tensor<4x8xf32> -> tensor<8xf32>
    ```
  }];
}

def UTA_ReduceMeanOp : UTA_ReduceOp<"reduce_mean"> {
  let summary = "arithmetic mean over dimensions";
  let description = [{
    The sum over `dims` divided by the number of reduced elements (the
    product of the reduced sizes). `dims` and `keep_dims` as for
    `uta.reduce_sum`. f32 only.

    ```mlir
    %m = uta.reduce_mean %x dims [1, 2] {keep_dims = true}
        : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

def UTA_SoftmaxOp : UTA_Op<"softmax", [Pure, SameOperandsAndResultType,
                                     OpaqueKernelOp, UTA_Differentiable]> {
  let summary = "softmax along one dimension";
  let description = [{
    `y[..., i, ...] = exp(x[..., i, ...]) / sum over j of exp(x[..., j, ...])`
    along dimension `dim` (non-negative, less than the rank). Lowerings
    subtract the maximum along `dim` first, which changes nothing
    mathematically. f32 only. One kernel of its own (never decomposed).

    ```mlir
    %y = uta.softmax %x dim 1 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins UTA_F32Tensor:$input, I64Attr:$dim);
  let results = (outs UTA_F32Tensor:$result);
  let assemblyFormat = "$input `dim` $dim attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def UTA_LayerNormOp
    : UTA_Op<"layer_norm", [Pure, AllTypesMatch<["input", "result"]>,
                           OpaqueKernelOp, UTA_Differentiable]> {
  let summary = "layer normalisation over the trailing dimensions";
  let description = [{
    Normalises `input` over dimensions `axis` .. rank-1 (`axis` non-negative,
    less than the rank):
    `y = (x - mean) / sqrt(var + epsilon) * weight + bias`, where `mean` and
    the biased variance `var` (divided by the element count, not count - 1)
    are taken over those dimensions. `weight` and `bias` have exactly the
    normalised trailing shape `input[axis:]` and broadcast over the leading
    dimensions. `epsilon` is an f32 (default 1e-5, finite, non-negative).
    f32 only. One kernel of its own (never decomposed).

    ```mlir
    %y = uta.layer_norm %x, %w, %b axis 1
        : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %z = uta.layer_norm %x3, %w2, %b2 axis 1 {epsilon = 9.99999997E-7 : f32}
        : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
    ```
  }];
  let arguments = (ins UTA_F32Tensor:$input, UTA_F32Tensor:$weight,
                       UTA_F32Tensor:$bias, I64Attr:$axis,
                       DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs UTA_F32Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias `axis` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [
    // The result has the input's type.
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Value":$weight,
                   "::mlir::Value":$bias, "int64_t":$axis,
                   CArg<"float", "1e-5f">:$epsilon)>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement and conversion
//===----------------------------------------------------------------------===//

def UTA_TransposeOp : UTA_Op<"transpose", [Pure, PointwiseKernelOp<0>,
                                           UTA_Differentiable]> {
  let summary = "permutes the dimensions of a tensor";
  let description = [{
    Result dimension `i` is input dimension `permutation[i]`:
    `result.shape[i] = input.shape[permutation[i]]`, and
    `result[j0, ..., jn-1] = input[i0, ..., in-1]` where
    `i[permutation[k]] = j[k]`. `permutation` is a permutation of
    0 .. rank-1.

    With `round_to_tf32` (f32 only) every result element is the input
    element rounded to TF32, the tensor cores' f32 input format (10 mantissa
    bits): to nearest, ties to even, NaN kept. `uta-tensor-core-layouts`
    makes such copies of f32 weights that the tensor cores read in plain
    TF32, which would otherwise truncate them. Such a transpose has no
    gradient.

    ```mlir
    %t = uta.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    %w = uta.transpose %v [0, 2, 1] {round_to_tf32}
        : tensor<20x512x256xf32> -> tensor<20x256x512xf32>
    ```
  }];
  let arguments = (ins UTA_Tensor:$input, DenseI64ArrayAttr:$permutation,
                       UnitAttr:$round_to_tf32);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let builders = [
    // Infers the result type with inferTransposeShape.
    OpBuilder<(ins "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$permutation)>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UTA_ReshapeOp : UTA_Op<"reshape", [Pure, PointwiseKernelOp<0>,
                                       UTA_Differentiable]> {
  let summary = "reinterprets a tensor with another shape";
  let description = [{
    The elements in row-major order are unchanged; only the shape (given by
    the result type) changes, so both shapes have the same element count.

    ```mlir
    %r = uta.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
    ```
  }];
  let arguments = (ins UTA_Tensor:$input);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UTA_BroadcastToOp : UTA_Op<"broadcast_to", [Pure, PointwiseKernelOp<0>,
                                            UTA_ZeroPreserving,
                                            UTA_Differentiable]> {
  let summary = "broadcasts a tensor to the result shape, NumPy rules";
  let description = [{
    Aligns the input with the result at the last dimension; every input size
    equals the result size or is 1 (repeated), and missing leading
    dimensions are added.

    ```mlir
    %b = uta.broadcast_to %x : tensor<4x1xf32> -> tensor<2x4x8xf32>
    ```
  }];
  let arguments = (ins UTA_Tensor:$input);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UTA_CastOp : UTA_Op<"cast", [Pure, UTA_Elementwise, PointwiseKernelOp<1>,
                                    UTA_ZeroPreserving, UTA_Differentiable]> {
  let summary = "converts between f32, f16 and bf16";
  let description = [{
    Converts each element to the result's element type, rounding to nearest
    even; values beyond the target's range become ±inf and NaN stays NaN.
    The shape is unchanged.

    ```mlir
    %h = uta.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
    ```
  }];
  let arguments = (ins UTA_Tensor:$input);
  let results = (outs UTA_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def UTA_FusionOp : UTA_Op<"fusion", [
    IsolatedFromAbove, RecursiveMemoryEffects,
    SingleBlock]> {
  let summary = "a group of ops that runs as one kernel";
  let description = [{
    The partition of the `fused` phase: the body's ops become a single kernel
    whose threads compute the yielded value (the root) point by point and
    recompute the producers they read, so intermediates never reach memory.
    Operands are the tensors the group reads; block arguments stand for them
    in order.

    ```mlir
    %r = uta.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>):
      %0 = uta.mul %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %1 = uta.exp %0 : tensor<8xf32>
      uta.yield %1 : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The op whose value the group yields.
    ::mlir::Operation *getRoot();
  }];
}

def UTA_YieldOp : UTA_Op<"yield", [
    Pure, Terminator, ReturnLike, HasParent<"FusionOp">]> {
  let summary = "the value a uta.fusion group produces";
  let arguments = (ins AnyRankedTensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // UTA_OPS_TD
