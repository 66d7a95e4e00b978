// Every verifier message of the uta dialect, one section each, plus the
// ODS-generated checks (static shapes, element types,
// attribute kinds).
// RUN: uta-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

// Trailing sizes 8 and 3 cannot broadcast.
func.func @binary_not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.add' op operand shapes [4, 8] and [3] are not broadcast-compatible: 8 and 3 differ and neither is 1}}
  %0 = uta.add %a, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A leading dimension mismatch is found too (2 vs 3 in dimension 0).
func.func @binary_not_broadcastable_leading(%a: tensor<2x1xf32>, %b: tensor<3x8xf32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{'uta.mul' op operand shapes [2, 1] and [3, 8] are not broadcast-compatible: 2 and 3 differ and neither is 1}}
  %0 = uta.mul %a, %b : (tensor<2x1xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// Broadcastable operands, but the result is not their broadcast shape.
func.func @binary_wrong_result_shape(%a: tensor<4x1xf32>, %b: tensor<8xf32>) -> tensor<4x1xf32> {
  // expected-error@+1 {{'uta.sub' op result shape [4, 1] does not match the broadcast shape [4, 8]}}
  %0 = uta.sub %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// pow broadcasts like every binary op: trailing sizes 8 and 3 cannot.
func.func @pow_not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.pow' op operand shapes [4, 8] and [3] are not broadcast-compatible: 8 and 3 differ and neither is 1}}
  %0 = uta.pow %a, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Mismatched shapes without broadcasting: [4] is not [8].
func.func @binary_mismatched_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'uta.max' op result shape [8] does not match the broadcast shape [4]}}
  %0 = uta.max %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Elementwise ops never convert: f32 with f16 is an error (use uta.cast).
func.func @binary_mixed_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.div' op operands and results must have the same element type, got 'f32', 'f16' and 'f32'}}
  %0 = uta.div %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Only statically shaped tensors are allowed (ODS type constraint).
func.func @binary_dynamic(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  // expected-error@+1 {{'uta.min' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<?x8xf32>'}}
  %0 = uta.min %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Integer tensors are not uta values.
func.func @binary_integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'uta.add' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi32>'}}
  %0 = "uta.add"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

// -----

// A dynamic dimension is rejected for unary ops as well.
func.func @unary_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'uta.exp' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<?xf32>'}}
  %0 = uta.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Unary ops keep their type; a different result type is an error.
func.func @unary_type_change(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error@+1 {{'uta.tanh' op requires the same type for all operands and results}}
  %0 = "uta.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// erf keeps its operand's type.
func.func @erf_changes_type(%x: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error@+1 {{'uta.erf' op requires the same type for all operands and results}}
  %0 = "uta.erf"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// sign keeps its operand's type: ±1 in the input's precision.
func.func @sign_changes_type(%x: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.sign' op requires the same type for all operands and results}}
  %0 = "uta.sign"(%x) : (tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// tanh_approximation is a BoolAttr, not an integer.
func.func @gelu_flag_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.gelu' op attribute 'tanh_approximation' failed to satisfy constraint: bool attribute}}
  %0 = "uta.gelu"(%x) {tanh_approximation = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// -----

// K of lhs (3) and of rhs (4) differ.
func.func @matmul_k_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'uta.matmul' op contraction dimensions differ: lhs has K = 3 but rhs has K = 4}}
  %0 = uta.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// With transpose_b, rhs is [N, K]: K is rhs's last size, 5 here, not 3.
func.func @matmul_k_mismatch_transposed(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'uta.matmul' op contraction dimensions differ: lhs has K = 3 but rhs has K = 5}}
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// With transpose_a, lhs is [K, M]: K is lhs's first matrix size, 2 here.
func.func @matmul_k_mismatch_transposed_a(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'uta.matmul' op contraction dimensions differ: lhs has K = 2 but rhs has K = 3}}
  %0 = uta.matmul %a, %b {transpose_a = true} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// With transpose_a, M is lhs's last size: the result is [3, 5], not [2, 5].
func.func @matmul_result_transposed_a(%a: tensor<3x2xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'uta.matmul' op result shape [3, 5] does not match the matmul shape [2, 5]}}
  %0 = uta.matmul %a, %b {transpose_a = true} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Both operands need rank >= 2; a vector is not a matrix.
func.func @matmul_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'uta.matmul' op lhs and rhs must have rank >= 2, got ranks 1 and 2}}
  %0 = uta.matmul %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Batch dims [2] and [3] do not broadcast.
func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error@+1 {{'uta.matmul' op batch dimensions [2] and [3] are not broadcast-compatible: 2 and 3 differ and neither is 1}}
  %0 = uta.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

// The result must be [batch..., M, N]: [2, 4, 16] here, not [4, 16].
func.func @matmul_result(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error@+1 {{'uta.matmul' op result shape [4, 16] does not match the matmul shape [2, 4, 16]}}
  %0 = uta.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Mixed precision is not implicit: bf16 x f32 is an error.
func.func @matmul_element_types(%a: tensor<4x8xbf16>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error@+1 {{'uta.matmul' op operands and results must have the same element type, got 'bf16', 'f32' and 'f32'}}
  %0 = uta.matmul %a, %b : (tensor<4x8xbf16>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

// Reductions are f32 only (f16/bf16 only for matmul and elementwise).
func.func @reduce_f16(%x: tensor<4x8xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{'uta.reduce_sum' op requires f32 element type, got 'f16' (f16 and bf16 are supported only by matmul and elementwise ops)}}
  %0 = uta.reduce_sum %x dims [1] : tensor<4x8xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// An f32 input with a bf16 result is rejected by the same rule.
func.func @reduce_bf16_result(%x: tensor<4x8xf32>) -> tensor<4xbf16> {
  // expected-error@+1 {{'uta.reduce_max' op requires f32 element type, got 'bf16' (f16 and bf16 are supported only by matmul and elementwise ops)}}
  %0 = uta.reduce_max %x dims [1] : tensor<4x8xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// A dynamic shape fails the f32 tensor type constraint.
func.func @reduce_dynamic(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.reduce_mean' op operand #0 must be statically shaped f32 tensor, but got 'tensor<4x?xf32>'}}
  %0 = uta.reduce_mean %x dims [1] : tensor<4x?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Dimension 2 does not exist in a rank-2 tensor.
func.func @reduce_dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.reduce_sum' op dim 2 is out of range for rank 2}}
  %0 = uta.reduce_sum %x dims [2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Negative dims are not accepted (index lists are non-negative).
func.func @reduce_dim_negative(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.reduce_sum' op dim -1 is out of range for rank 2}}
  %0 = uta.reduce_sum %x dims [-1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// dims carry no order, so they must be written ascending.
func.func @reduce_dims_descending(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error@+1 {{'uta.reduce_sum' op dims must be unique and ascending, got [1, 0]}}
  %0 = uta.reduce_sum %x dims [1, 0] : tensor<4x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A repeated dim is rejected.
func.func @reduce_dims_repeated(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.reduce_max' op dims must be unique and ascending, got [1, 1]}}
  %0 = uta.reduce_max %x dims [1, 1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Reducing over nothing is not a reduction.
func.func @reduce_dims_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.reduce_mean' op dims must not be empty}}
  %0 = uta.reduce_mean %x dims [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// With keep_dims the reduced dim stays with size 1: [4, 1], not [4].
func.func @reduce_keep_dims_result(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.reduce_sum' op result shape [4] does not match the reduced shape [4, 1]}}
  %0 = uta.reduce_sum %x dims [1] {keep_dims = true} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// dims must be a dense i64 array (`array<i64: 1>`), not an ArrayAttr.
func.func @reduce_dims_kind(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'uta.reduce_sum' op attribute 'dims' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "uta.reduce_sum"(%x) {dims = [1]} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Softmax and layer_norm
//===----------------------------------------------------------------------===//

// -----

// Softmax along dimension 2 of a rank-2 tensor.
func.func @softmax_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.softmax' op dim 2 is out of range for rank 2}}
  %0 = uta.softmax %x dim 2 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Softmax is f32 only.
func.func @softmax_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error@+1 {{'uta.softmax' op requires f32 element type, got 'bf16' (f16 and bf16 are supported only by matmul and elementwise ops)}}
  %0 = uta.softmax %x dim 1 : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// dim is required and is an i64 IntegerAttr.
func.func @softmax_dim_kind(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.softmax' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "uta.softmax"(%x) {dim = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// axis 2 is past the last dimension of a rank-2 input.
func.func @layer_norm_axis(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op axis 2 is out of range for rank 2}}
  %0 = uta.layer_norm %x, %w, %w axis 2 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Normalising over dims 0..1 needs weight [4, 8], not [8].
func.func @layer_norm_weight_shape(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op weight shape [8] does not match the normalised shape [4, 8]}}
  %0 = uta.layer_norm %x, %w, %b axis 0 : (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The bias has to match too; broadcasting [1] is not enough.
func.func @layer_norm_bias_shape(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<1xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op bias shape [1] does not match the normalised shape [8]}}
  %0 = uta.layer_norm %x, %w, %b axis 1 : (tensor<4x8xf32>, tensor<8xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Layer norm is f32 only, weights included.
func.func @layer_norm_f16_weight(%x: tensor<4x8xf32>, %w: tensor<8xf16>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op requires f32 element type, got 'f16' (f16 and bf16 are supported only by matmul and elementwise ops)}}
  %0 = uta.layer_norm %x, %w, %b axis 1 : (tensor<4x8xf32>, tensor<8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A negative epsilon makes sqrt(var + epsilon) NaN for constant rows.
func.func @layer_norm_negative_epsilon(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op epsilon must be finite and non-negative, got -1.000000e+00}}
  %0 = uta.layer_norm %x, %w, %w axis 1 {epsilon = -1.0 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A NaN epsilon is rejected by the same rule.
func.func @layer_norm_nan_epsilon(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op epsilon must be finite and non-negative, got nan}}
  %0 = uta.layer_norm %x, %w, %w axis 1 {epsilon = 0x7FC00000 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// epsilon is an f32 FloatAttr; an f64 one is rejected.
func.func @layer_norm_epsilon_kind(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.layer_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "uta.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-06 : f64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The result has the input's type.
func.func @layer_norm_result(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'uta.layer_norm' op failed to verify that all of {input, result} have same type}}
  %0 = "uta.layer_norm"(%x, %w, %w) {axis = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

//===----------------------------------------------------------------------===//
// Data movement and conversion
//===----------------------------------------------------------------------===//

// -----

// A rank-2 input needs a permutation of 2 entries.
func.func @transpose_length(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'uta.transpose' op permutation has 3 entries but the input has rank 2}}
  %0 = uta.transpose %x [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A repeated entry is not a permutation.
func.func @transpose_repeated(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{'uta.transpose' op permutation [0, 0] is not a permutation of 0..1}}
  %0 = uta.transpose %x [0, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// An out-of-range entry is not a permutation either.
func.func @transpose_out_of_range(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'uta.transpose' op permutation [2, 0] is not a permutation of 0..1}}
  %0 = uta.transpose %x [2, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Rounding to TF32 is defined for f32 elements only.
func.func @transpose_round_f16(%x: tensor<4x8xf16>) -> tensor<8x4xf16> {
  // expected-error@+1 {{'uta.transpose' op round_to_tf32 rounds f32 elements, got 'f16'}}
  %0 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<4x8xf16> -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

// [1, 0] of [4, 8] is [8, 4], not [4, 8].
func.func @transpose_result(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.transpose' op result shape [4, 8] does not match the transposed shape [8, 4]}}
  %0 = uta.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Transpose moves data; it does not convert.
func.func @transpose_element_type(%x: tensor<4x8xf32>) -> tensor<8x4xf16> {
  // expected-error@+1 {{'uta.transpose' op operands and results must have the same element type, got 'f32' and 'f16'}}
  %0 = uta.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

// 4 * 8 = 32 elements cannot become 3 * 8 = 24.
func.func @reshape_count(%x: tensor<4x8xf32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{'uta.reshape' op element count differs: input has 32 elements but result has 24}}
  %0 = uta.reshape %x : tensor<4x8xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// 2^32 * 2^32 elements overflow int64_t; the verifier says so instead of
// comparing wrapped counts.
func.func @reshape_overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{'uta.reshape' op operand 0 of type 'tensor<4294967296x4294967296xf32>' has more elements or bytes than a 64-bit count holds}}
  %0 = uta.reshape %x : tensor<4294967296x4294967296xf32> -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

// Reshape does not convert element types.
func.func @reshape_element_type(%x: tensor<4x8xbf16>) -> tensor<32xf32> {
  // expected-error@+1 {{'uta.reshape' op operands and results must have the same element type, got 'bf16' and 'f32'}}
  %0 = uta.reshape %x : tensor<4x8xbf16> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

// Broadcasting never drops dimensions.
func.func @broadcast_to_rank(%x: tensor<2x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'uta.broadcast_to' op input rank 3 exceeds result rank 2}}
  %0 = uta.broadcast_to %x : tensor<2x4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Size 3 can only stay 3; it cannot become 2.
func.func @broadcast_to_size(%x: tensor<3xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{'uta.broadcast_to' op input shape [3] is not broadcastable to result shape [4, 2]: input dimension 0 has size 3 but result dimension 1 has size 2}}
  %0 = uta.broadcast_to %x : tensor<3xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Broadcasting does not convert element types.
func.func @broadcast_to_element_type(%x: tensor<8xf16>) -> tensor<4x8xbf16> {
  // expected-error@+1 {{'uta.broadcast_to' op operands and results must have the same element type, got 'f16' and 'bf16'}}
  %0 = uta.broadcast_to %x : tensor<8xf16> -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// A cast converts elements, never the shape.
func.func @cast_shape(%x: tensor<4x8xf32>) -> tensor<32xf16> {
  // expected-error@+1 {{'uta.cast' op input shape [4, 8] and result shape [32] differ; cast changes only the element type}}
  %0 = uta.cast %x : tensor<4x8xf32> -> tensor<32xf16>
  return %0 : tensor<32xf16>
}

// -----

// Casts are between f32, f16 and bf16 only.
func.func @cast_f64(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error@+1 {{'uta.cast' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xf64>'}}
  %0 = uta.cast %x : tensor<4xf32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// An unranked tensor is not even a candidate for the custom syntax: the
// parser rejects it.
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error@+1 {{custom op 'uta.exp' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = uta.exp %x : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Element counts and byte sizes must fit int64: 2^32 x 2^32 f32 elements
// are 2^66 bytes (every uta and clifford op checks its tensors).
func.func @size_overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{'uta.neg' op operand 0 of type 'tensor<4294967296x4294967296xf32>' has more elements or bytes than a 64-bit count holds}}
  %0 = uta.neg %x : tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}
