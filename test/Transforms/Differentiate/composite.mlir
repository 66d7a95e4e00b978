// uta-differentiate on graphs: the rules chained in reverse order, the
// cotangents of a value with several uses summed, the forward values that
// the backward reads kept, and the options (function=, wrt=, joint=,
// remarks=). One module; each RUN differentiates one function of it.
// RUN: uta-opt %s --uta-differentiate=function=sgp | FileCheck %s --check-prefix=SGP
// RUN: uta-opt %s --uta-differentiate=function=mlp | FileCheck %s --check-prefix=MLP
// RUN: uta-opt %s --uta-differentiate="function=mlp wrt=1,5" | FileCheck %s --check-prefix=MLP-WRT
// RUN: uta-opt %s --uta-differentiate=function=two_results | FileCheck %s --check-prefix=TWO
// RUN: uta-opt %s --uta-differentiate="function=two_results wrt=1" | FileCheck %s --check-prefix=TWO-WRT
// RUN: uta-opt %s --uta-differentiate="function=two_results joint=true" | FileCheck %s --check-prefix=JOINT
// RUN: uta-opt %s --uta-differentiate=function=used_twice | FileCheck %s --check-prefix=TWICE
// RUN: uta-opt %s --uta-differentiate=function=square | FileCheck %s --check-prefix=SQUARE
// RUN: uta-opt %s --uta-differentiate=function=returned_twice | FileCheck %s --check-prefix=RETURNED
// RUN: uta-opt %s --uta-differentiate=function=unused_input | FileCheck %s --check-prefix=UNUSED
// The remarks go to stderr, located at the forward ops; without
// remarks=true there are none.
// RUN: uta-opt %s --uta-differentiate="function=remarks remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARKS
// RUN: uta-opt %s --uta-differentiate="function=remarks remarks=true joint=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARKS
// RUN: uta-opt %s --uta-differentiate="function=remarks remarks=true joint=true" 2>/dev/null | FileCheck %s --check-prefix=REMARKS-JOINT
// RUN: uta-opt %s --uta-differentiate=function=remarks 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: remark:

//===----------------------------------------------------------------------===//
// The SGP layer of examples/sgp_cl3.mlir, smaller
//===----------------------------------------------------------------------===//

// grade_rms_norm(weighted_product(scalar_gate(x), scalar_gate(y), w)): the
// norm's adjoint reads the product, the product's adjoints and path sums
// read both gates, and each gate's adjoint receives its operand's adjoint
// (y's first: the ops are visited in reverse). The path sums take runs of
// 4 P / 2^n = 10 batch elements, here the whole batch of 4. @sgp itself
// becomes private.
//       SGP: func.func private @sgp(
// SGP-LABEL: func.func @sgp_vjp(
//  SGP-SAME:     %[[X:arg[0-9]+]]: tensor<8x4x6xf32>, %[[Y:arg[0-9]+]]: tensor<8x4x6xf32>, %[[W:arg[0-9]+]]: tensor<6x20xf32>, %[[G:arg[0-9]+]]: tensor<8x4x6xf32>)
//  SGP-SAME:     -> (tensor<8x4x6xf32>, tensor<8x4x6xf32>, tensor<6x20xf32>)
//  SGP-NEXT:   %[[GX:.*]] = clifford.scalar_gate <3, 0, 0> %[[X]]
//  SGP-NEXT:   %[[GY:.*]] = clifford.scalar_gate <3, 0, 0> %[[Y]]
//  SGP-NEXT:   %[[P:.*]] = clifford.weighted_product <3, 0, 0> %[[GX]], %[[GY]], %[[W]]
//  SGP-NEXT:   %[[DP:.*]] = clifford.grade_rms_norm_adjoint <3, 0, 0> %[[G]], %[[P]] : tensor<8x4x6xf32>
//  SGP-NEXT:   %[[DGX:.*]] = clifford.weighted_product_adjoint <3, 0, 0> lhs %[[DP]], %[[GY]], %[[W]]
//  SGP-NEXT:   %[[DGY:.*]] = clifford.weighted_product_adjoint <3, 0, 0> rhs %[[DP]], %[[GX]], %[[W]]
//  SGP-NEXT:   %[[PA:.*]] = clifford.path_adjoint <3, 0, 0> %[[DP]], %[[GX]], %[[GY]] {batch_chunk = 4 : i64} : (tensor<8x4x6xf32>, tensor<8x4x6xf32>, tensor<8x4x6xf32>) -> tensor<20x1x6xf32>
//  SGP-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1] : tensor<20x1x6xf32> -> tensor<20x6xf32>
//  SGP-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<20x6xf32> -> tensor<6x20xf32>
//  SGP-NEXT:   %[[DY:.*]] = clifford.scalar_gate_adjoint <3, 0, 0> %[[DGY]], %[[Y]] : tensor<8x4x6xf32>
//  SGP-NEXT:   %[[DX:.*]] = clifford.scalar_gate_adjoint <3, 0, 0> %[[DGX]], %[[X]] : tensor<8x4x6xf32>
//  SGP-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @sgp(%x: tensor<8x4x6xf32>, %y: tensor<8x4x6xf32>, %w: tensor<6x20xf32>) -> tensor<8x4x6xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4x6xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4x6xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w : (tensor<8x4x6xf32>, tensor<8x4x6xf32>, tensor<6x20xf32>) -> tensor<8x4x6xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4x6xf32>
  return %n : tensor<8x4x6xf32>
}

//===----------------------------------------------------------------------===//
// A small MLP (matmul, bias, gelu, layer_norm, matmul, softmax)
//===----------------------------------------------------------------------===//

// The backward visits softmax, the second matmul, layer_norm, gelu, the
// bias add and the first matmul, in that order. The forward values each
// rule reads stay: softmax's result, layer_norm's input (its statistics
// are recomputed) and output, gelu's input.
// MLP-LABEL: func.func @mlp_vjp(
//  MLP-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[W1:arg[0-9]+]]: tensor<16x8xf32>, %[[B1:arg[0-9]+]]: tensor<16xf32>, %[[GAMMA:arg[0-9]+]]: tensor<16xf32>, %[[BETA:arg[0-9]+]]: tensor<16xf32>, %[[W2:arg[0-9]+]]: tensor<16x10xf32>, %[[G:arg[0-9]+]]: tensor<4x10xf32>)
//  MLP-SAME:     -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>)
//  MLP-NEXT:   %[[H:.*]] = uta.matmul %[[X]], %[[W1]] {transpose_b = true}
//  MLP-NEXT:   %[[HB:.*]] = uta.add %[[H]], %[[B1]]
//  MLP-NEXT:   %[[A:.*]] = uta.gelu %[[HB]]
//  MLP-NEXT:   %[[N:.*]] = uta.layer_norm %[[A]], %[[GAMMA]], %[[BETA]] axis 1
//  MLP-NEXT:   %[[L:.*]] = uta.matmul %[[N]], %[[W2]]
//  MLP-NEXT:   %[[P:.*]] = uta.softmax %[[L]] dim 1
// softmax
//  MLP-NEXT:   %[[GP:.*]] = uta.mul %[[G]], %[[P]]
//  MLP-NEXT:   %[[DOT:.*]] = uta.reduce_sum %[[GP]] dims [1] {keep_dims = true}
//  MLP-NEXT:   %[[C:.*]] = uta.sub %[[G]], %[[DOT]]
//  MLP-NEXT:   %[[DL:.*]] = uta.mul %[[P]], %[[C]]
// the second matmul
//  MLP-NEXT:   %[[DN:.*]] = uta.matmul %[[DL]], %[[W2]] {transpose_b = true} : (tensor<4x10xf32>, tensor<16x10xf32>) -> tensor<4x16xf32>
//  MLP-NEXT:   %[[DW2:.*]] = uta.matmul %[[N]], %[[DL]] {transpose_a = true} : (tensor<4x16xf32>, tensor<4x10xf32>) -> tensor<16x10xf32>
// layer_norm
//  MLP-NEXT:   uta.reduce_mean %[[A]] dims [1] {keep_dims = true}
//       MLP:   %[[XHAT:.*]] = uta.mul %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
//  MLP-NEXT:   uta.mul %[[DN]], %[[GAMMA]]
//       MLP:   %[[DA:.*]] = uta.mul %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
//  MLP-NEXT:   %[[DNX:.*]] = uta.mul %[[DN]], %[[XHAT]]
//  MLP-NEXT:   %[[DGAMMA:.*]] = uta.reduce_sum %[[DNX]] dims [0] : tensor<4x16xf32> -> tensor<16xf32>
//  MLP-NEXT:   %[[DBETA:.*]] = uta.reduce_sum %[[DN]] dims [0] : tensor<4x16xf32> -> tensor<16xf32>
// gelu
//  MLP-NEXT:   arith.constant dense<0.707106769>
//  MLP-NEXT:   uta.mul %[[HB]], %{{.*}}
//  MLP-NEXT:   uta.erf
//       MLP:   %[[SLOPE:.*]] = uta.add %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<4x16xf32>)
//  MLP-NEXT:   %[[DHB:.*]] = uta.mul %[[DA]], %[[SLOPE]]
// the bias, broadcast over the rows
//  MLP-NEXT:   %[[DB1:.*]] = uta.reduce_sum %[[DHB]] dims [0] : tensor<4x16xf32> -> tensor<16xf32>
// the first matmul, W1 stored transposed
//  MLP-NEXT:   %[[DX:.*]] = uta.matmul %[[DHB]], %[[W1]] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
//  MLP-NEXT:   %[[DW1:.*]] = uta.matmul %[[DHB]], %[[X]] {transpose_a = true} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
//  MLP-NEXT:   return %[[DX]], %[[DW1]], %[[DB1]], %[[DGAMMA]], %[[DBETA]], %[[DW2]] : tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x10xf32>

// With wrt=1,5 only the weights: no dx, no bias, gamma or beta gradients,
// and the first matmul builds dW1 alone.
// MLP-WRT-LABEL: func.func @mlp_vjp(
//  MLP-WRT-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %{{.*}}, %[[G:arg[0-9]+]]: tensor<4x10xf32>) -> (tensor<16x8xf32>, tensor<16x10xf32>)
//       MLP-WRT:   %[[N:.*]] = uta.layer_norm
//       MLP-WRT:   %[[DW2:.*]] = uta.matmul %[[N]], %{{.*}} {transpose_a = true} : (tensor<4x16xf32>, tensor<4x10xf32>) -> tensor<16x10xf32>
//   MLP-WRT-NOT:   uta.reduce_sum %{{.*}} dims [0]
//       MLP-WRT:   uta.erf
//       MLP-WRT:   %[[DW1:.*]] = uta.matmul %{{.*}}, %[[X]] {transpose_a = true} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
//  MLP-WRT-NEXT:   return %[[DW1]], %[[DW2]] : tensor<16x8xf32>, tensor<16x10xf32>
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<16x8xf32>, %b1: tensor<16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>, %w2: tensor<16x10xf32>) -> tensor<4x10xf32> {
  %h = uta.matmul %x, %w1 {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  %hb = uta.add %h, %b1 : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %a = uta.gelu %hb : tensor<4x16xf32>
  %n = uta.layer_norm %a, %gamma, %beta axis 1 : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %l = uta.matmul %n, %w2 : (tensor<4x16xf32>, tensor<16x10xf32>) -> tensor<4x10xf32>
  %p = uta.softmax %l dim 1 : tensor<4x10xf32>
  return %p : tensor<4x10xf32>
}

//===----------------------------------------------------------------------===//
// Several results, several uses
//===----------------------------------------------------------------------===//

// Two results, two cotangents: x receives the exp's share first (the ops
// are visited in reverse), then the add's.
// TWO-LABEL: func.func @two_results_vjp(
//  TWO-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[Y:arg[0-9]+]]: tensor<8xf32>, %[[GS:arg[0-9]+]]: tensor<8xf32>, %[[GE:arg[0-9]+]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
//  TWO-NEXT:   %[[E:.*]] = uta.exp %[[X]]
//  TWO-NEXT:   %[[VIAE:.*]] = uta.mul %[[GE]], %[[E]]
//  TWO-NEXT:   %[[DX:.*]] = uta.add %[[VIAE]], %[[GS]]
//  TWO-NEXT:   return %[[DX]], %[[GS]]

// Only y: exp(x) does not depend on it, so its cotangent goes unread.
// TWO-WRT-LABEL: func.func @two_results_vjp(
//  TWO-WRT-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[Y:arg[0-9]+]]: tensor<8xf32>, %[[GS:arg[0-9]+]]: tensor<8xf32>, %[[GE:arg[0-9]+]]: tensor<8xf32>) -> tensor<8xf32>
//  TWO-WRT-NEXT:   return %[[GS]] : tensor<8xf32>

// joint=true: @two_results_fwd_bwd returns the results, then the gradients.
// JOINT-LABEL: func.func @two_results_fwd_bwd(
//  JOINT-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[Y:arg[0-9]+]]: tensor<8xf32>, %[[GS:arg[0-9]+]]: tensor<8xf32>, %[[GE:arg[0-9]+]]: tensor<8xf32>)
//  JOINT-SAME:     -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
//  JOINT-NEXT:   %[[S:.*]] = uta.add %[[X]], %[[Y]]
//  JOINT-NEXT:   %[[E:.*]] = uta.exp %[[X]]
//  JOINT-NEXT:   %[[VIAE:.*]] = uta.mul %[[GE]], %[[E]]
//  JOINT-NEXT:   %[[DX:.*]] = uta.add %[[VIAE]], %[[GS]]
//  JOINT-NEXT:   return %[[S]], %[[E]], %[[DX]], %[[GS]]
//   JOINT-NOT: func.func @two_results_vjp
func.func @two_results(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = uta.add %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %e = uta.exp %x : tensor<8xf32>
  return %s, %e : tensor<8xf32>, tensor<8xf32>
}

// x feeds exp and mul: its cotangents, the mul's (g e) then the exp's
// ((g x) e), are summed with uta.add.
// TWICE-LABEL: func.func @used_twice_vjp(
//  TWICE-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<8xf32>)
//  TWICE-NEXT:   %[[E:.*]] = uta.exp %[[X]]
//  TWICE-NEXT:   %[[DE:.*]] = uta.mul %[[G]], %[[X]]
//  TWICE-NEXT:   %[[VIAMUL:.*]] = uta.mul %[[G]], %[[E]]
//  TWICE-NEXT:   %[[VIAEXP:.*]] = uta.mul %[[DE]], %[[E]]
//  TWICE-NEXT:   %[[DX:.*]] = uta.add %[[VIAMUL]], %[[VIAEXP]]
//  TWICE-NEXT:   return %[[DX]]
func.func @used_twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = uta.exp %x : tensor<8xf32>
  %p = uta.mul %e, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %p : tensor<8xf32>
}

// Both operands of one op: g x + g x.
// SQUARE-LABEL: func.func @square_vjp(
//  SQUARE-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<8xf32>)
//  SQUARE-NEXT:   %[[L:.*]] = uta.mul %[[G]], %[[X]]
//  SQUARE-NEXT:   %[[R:.*]] = uta.mul %[[G]], %[[X]]
//  SQUARE-NEXT:   %[[DX:.*]] = uta.add %[[L]], %[[R]]
//  SQUARE-NEXT:   return %[[DX]]
func.func @square(%x: tensor<8xf32>) -> tensor<8xf32> {
  %p = uta.mul %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %p : tensor<8xf32>
}

// A value returned twice gets both cotangents, in result order; an input
// returned as it is gets its result's cotangent, plus what flows back.
// RETURNED-LABEL: func.func @returned_twice_vjp(
//  RETURNED-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[G0:arg[0-9]+]]: tensor<8xf32>, %[[G1:arg[0-9]+]]: tensor<8xf32>, %[[G2:arg[0-9]+]]: tensor<8xf32>) -> tensor<8xf32>
//  RETURNED-NEXT:   %[[T:.*]] = uta.tanh %[[X]]
//  RETURNED-NEXT:   %[[DT:.*]] = uta.add %[[G0]], %[[G1]]
//       RETURNED:   %[[VIAT:.*]] = uta.mul %[[DT]], %{{.*}}
//  RETURNED-NEXT:   %[[DX:.*]] = uta.add %[[G2]], %[[VIAT]]
//  RETURNED-NEXT:   return %[[DX]]
func.func @returned_twice(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %t = uta.tanh %x : tensor<8xf32>
  return %t, %t, %x : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// An input that no result depends on gets a zero gradient of its type.
// UNUSED-LABEL: func.func @unused_input_vjp(
//  UNUSED-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[U:arg[0-9]+]]: tensor<2x3xf32>, %[[W:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<8xf32>)
//  UNUSED-SAME:     -> (tensor<8xf32>, tensor<2x3xf32>, tensor<8xf32>)
//  UNUSED-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[W]]
//  UNUSED-NEXT:   %[[DW:.*]] = uta.mul %[[G]], %[[X]]
//  UNUSED-NEXT:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
//  UNUSED-NEXT:   return %[[DX]], %[[ZERO]], %[[DW]]
func.func @unused_input(%x: tensor<8xf32>, %unused: tensor<2x3xf32>, %w: tensor<8xf32>) -> tensor<8xf32> {
  %p = uta.mul %x, %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %p : tensor<8xf32>
}

//===----------------------------------------------------------------------===//
// remarks=true
//===----------------------------------------------------------------------===//

// One remark per forward value that the backward reads, at the forward op:
// tanh's and softmax's results (4 * 16 f32, 256 bytes). The matmul's is
// read by the forward tanh only (its rule reads x and w). In the joint
// function softmax's result is also returned, and still reported.
// REMARKS-JOINT-LABEL: func.func @remarks_fwd_bwd(
//  REMARKS-JOINT-SAME:     -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>)
//  REMARKS-JOINT-NEXT:   uta.matmul
//  REMARKS-JOINT-NEXT:   %[[T:.*]] = uta.tanh
//  REMARKS-JOINT-NEXT:   %[[S:.*]] = uta.softmax %[[T]]
//       REMARKS-JOINT:   return %[[S]], %{{.*}}, %{{.*}} :
// REMARKS-NOT: remark:
func.func @remarks(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %h = uta.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // REMARKS: composite.mlir:[[@LINE+1]]:8: remark: forward value read by the backward of @remarks (256 bytes); the fusion cost model decides whether its readers recompute it or load it
  %t = uta.tanh %h : tensor<4x16xf32>
  // REMARKS: composite.mlir:[[@LINE+1]]:8: remark: forward value read by the backward of @remarks (256 bytes); the fusion cost model decides whether its readers recompute it or load it
  %s = uta.softmax %t dim 1 : tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}
// REMARKS-NOT: remark:
