// uta-partition-training: @f_forward returns the results, then the
// residuals; @f_backward takes the saved values (uta.saved: indices into the
// forward's arguments, then its results), then the cotangents. GEMM and
// softmax outputs are saved (or a value as large computed from them, nearer
// the backward's reads), pointwise chains recomputed, values the caller
// holds (arguments, results) read rather than recomputed.
// RUN: uta-opt %s -split-input-file --uta-partition-training | FileCheck %s
// RUN: uta-opt %s -split-input-file --uta-partition-training="remarks=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A pointwise chain saves nothing of its own: the backward recomputes the
// gelu from x.
//       CHECK: func.func private @chain(
// CHECK-LABEL: func.func @chain_forward(
//  CHECK-SAME:     %[[X:arg0]]: tensor<64xf32>) -> tensor<64xf32> attributes {uta.residuals = 0 : i64}
// CHECK-LABEL: func.func @chain_backward(
//  CHECK-SAME:     %[[X:arg0]]: tensor<64xf32>, %[[G:arg1]]: tensor<64xf32>) -> tensor<64xf32> attributes {uta.saved = array<i64: 0>}
//  CHECK-NEXT:   %[[A:.*]] = uta.gelu %[[X]]
//  CHECK-NEXT:   uta.mul %[[G]], %[[A]]
// REMARK: partition-training.mlir:[[# @LINE + 3]]:1: remark: argument #0 saved for @chain_backward (256 bytes): an argument, which the caller holds
// REMARK: partition-training.mlir:[[# @LINE + 3]]:8: remark: 'uta.gelu' recomputed in @chain_backward (256 bytes not saved): cheap to recompute from what is saved
// REMARK-NOT: saved for @chain_backward
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = uta.gelu %x : tensor<64xf32>
  %b = uta.mul %a, %a : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// The matmul's output is not recomputed (a GEMM), and relu's rule reads its
// mask, relu(sign(m)), of the same size: of the two cheapest cuts the one
// nearest the backward's reads is taken, so the forward saves the mask (a
// residual, forward value 3 = two arguments, one result, then residual 0)
// and the backward computes neither; the weight gradient reads x.
// CHECK-LABEL: func.func @linear_relu_forward(
//  CHECK-SAME:     -> (tensor<16x8xf32>, tensor<16x8xf32>) attributes {uta.residuals = 1 : i64}
//  CHECK-NEXT:   %[[M:.*]] = uta.matmul
//  CHECK-NEXT:   %[[R:.*]] = uta.relu %[[M]]
//  CHECK-NEXT:   %[[S:.*]] = uta.sign %[[M]]
//  CHECK-NEXT:   %[[K:.*]] = uta.relu %[[S]]
//  CHECK-NEXT:   return %[[R]], %[[K]]
// CHECK-LABEL: func.func @linear_relu_backward(
//  CHECK-SAME:     %[[X:arg0]]: tensor<16x32xf32>, %[[W:arg1]]: tensor<32x8xf32>, %[[K:arg2]]: tensor<16x8xf32>, %[[G:arg3]]: tensor<16x8xf32>) -> (tensor<16x32xf32>, tensor<32x8xf32>) attributes {uta.saved = array<i64: 0, 1, 3>}
//   CHECK-NOT:   uta.matmul %[[X]], %[[W]]
//   CHECK-NOT:   uta.sign
//       CHECK:   uta.mul %[[G]], %[[K]]
// REMARK: remark: 'uta.relu' saved for @linear_relu_backward (512 bytes): cheaper to save than what recomputing it needs
// REMARK-NOT: 'uta.matmul' saved for @linear_relu_backward
func.func @linear_relu(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %m = uta.matmul %x, %w : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %r = uta.relu %m : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// exp's rule reads its result, which the caller holds: the backward takes
// the result (forward value 1), not x, and computes no exp.
// CHECK-LABEL: func.func @exp_backward(
//  CHECK-SAME:     %[[E:arg0]]: tensor<64xf32>, %[[G:arg1]]: tensor<64xf32>) -> tensor<64xf32> attributes {uta.saved = array<i64: 1>}
//  CHECK-NEXT:   %[[D:.*]] = uta.mul %[[G]], %[[E]]
//  CHECK-NEXT:   return %[[D]]
// REMARK: remark: 'uta.exp' saved for @exp_backward (256 bytes): a result, which the caller holds
func.func @exp(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = uta.exp %x : tensor<64xf32>
  return %e : tensor<64xf32>
}

// -----

// softmax is not recomputed (a reduction over its axis): its output is a
// residual; tanh's rule reads the result.
// CHECK-LABEL: func.func @softmax_tanh_backward(
//  CHECK-SAME:     attributes {uta.saved = array<i64: 0, 1, 2, 3>}
//   CHECK-NOT:   uta.softmax
//   CHECK-NOT:   uta.tanh
//       CHECK:   return
// REMARK: remark: 'uta.softmax' saved for @softmax_tanh_backward (1024 bytes): not recomputed: its elements depend on other positions (a GEMM, a norm or a reduction over an axis)
func.func @softmax_tanh(%x: tensor<4x64xf32>, %s: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %m = uta.mul %x, %s : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %y = uta.softmax %m dim 1 : tensor<4x64xf32>
  %t = uta.tanh %y : tensor<4x64xf32>
  return %t : tensor<4x64xf32>
}

// -----

// Flash Clifford's SGP layer: the linear map's output plus the bias is
// saved (the GEMM's output is not recomputed, and the sum is as large and
// nearer the backward's reads: the bias add then runs in the GEMM's
// epilogue); the gates and the weighted product are recomputed in the
// backward, which reads x and the weights; the norm's adjoint reads the
// recomputed product.
// CHECK-LABEL: func.func @sgp_layer_forward(
//  CHECK-SAME:     attributes {uta.residuals = 1 : i64}
// CHECK-LABEL: func.func @sgp_layer_backward(
//  CHECK-SAME:     attributes {uta.saved = array<i64: 0, 1, 3, 5>}
//   CHECK-NOT:   uta.matmul %arg0, %arg1 :
//   CHECK-NOT:   uta.add
//       CHECK:   clifford.weighted_product
//       CHECK:   clifford.grade_rms_norm_adjoint
// REMARK: remark: 'uta.add' saved for @sgp_layer_backward (384 bytes)
// REMARK: remark: 'clifford.weighted_product' recomputed in @sgp_layer_backward (384 bytes not saved)
func.func @sgp_layer(%x: tensor<8x3x4xf32>, %lw: tensor<8x4x4xf32>, %b: tensor<1x1x4xf32>, %w: tensor<4x20xf32>) -> tensor<8x3x4xf32> {
  %h = uta.matmul %x, %lw : (tensor<8x3x4xf32>, tensor<8x4x4xf32>) -> tensor<8x3x4xf32>
  %y = uta.add %h, %b : (tensor<8x3x4xf32>, tensor<1x1x4xf32>) -> tensor<8x3x4xf32>
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x4xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x4xf32>
  %z = clifford.weighted_product <3, 0, 0> %gx, %gy, %w : (tensor<8x3x4xf32>, tensor<8x3x4xf32>, tensor<4x20xf32>) -> tensor<8x3x4xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %z : tensor<8x3x4xf32>
  return %n : tensor<8x3x4xf32>
}

// -----

// The joint function is built apart: a module that has @f_fwd_bwd already
// partitions @f all the same.
// CHECK-LABEL: func.func @named_forward(
// CHECK-LABEL: func.func @named_backward(
func.func private @named_fwd_bwd() -> ()
func.func @named(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = uta.tanh %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
