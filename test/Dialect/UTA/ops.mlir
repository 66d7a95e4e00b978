// Every uta op round-trips through its custom form, and through the generic
// form (properties printed as `<{...}>`) back to the same custom form.
// RUN: uta-opt %s | uta-opt | FileCheck %s
// RUN: uta-opt %s --mlir-print-op-generic | uta-opt | FileCheck %s
// The generic form really is generic: check a few spellings.
// RUN: uta-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @binary
//  CHECK-SAME:   (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<4x1xf32>, %[[S:.*]]: tensor<f32>)
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>,
                  %s: tensor<f32>) -> tensor<4x8xf32> {
  // CHECK: %[[ADD:.*]] = uta.add %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = uta.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[SUB:.*]] = uta.sub %[[C]], %[[B]] : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = uta.sub %c, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MUL:.*]] = uta.mul %[[ADD]], %[[SUB]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = uta.mul %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[DIV:.*]] = uta.div %[[MUL]], %[[S]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = uta.div %2, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  // CHECK: %[[MAX:.*]] = uta.max %[[S]], %[[DIV]] : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = uta.max %s, %3 : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MIN:.*]] = uta.min %[[MAX]], %[[C]] : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %5 = uta.min %4, %c : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // CHECK: %[[POW:.*]] = uta.pow %[[MIN]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %6 = uta.pow %5, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: return %[[POW]]
  return %6 : tensor<4x8xf32>
}

// Both operands broadcast into a larger result; f16 and bf16 are accepted.
// GENERIC: "uta.pow"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// GENERIC: "uta.erf"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC: "uta.sign"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func @binary_half
func.func @binary_half(%a: tensor<4x1xf16>, %b: tensor<2x1x8xf16>,
                       %c: tensor<8xbf16>, %d: tensor<3x1xbf16>)
    -> (tensor<2x4x8xf16>, tensor<3x8xbf16>) {
  // CHECK: uta.add %{{.*}}, %{{.*}} : (tensor<4x1xf16>, tensor<2x1x8xf16>) -> tensor<2x4x8xf16>
  %0 = uta.add %a, %b : (tensor<4x1xf16>, tensor<2x1x8xf16>) -> tensor<2x4x8xf16>
  // CHECK: uta.max %{{.*}}, %{{.*}} : (tensor<8xbf16>, tensor<3x1xbf16>) -> tensor<3x8xbf16>
  %1 = uta.max %c, %d : (tensor<8xbf16>, tensor<3x1xbf16>) -> tensor<3x8xbf16>
  return %0, %1 : tensor<2x4x8xf16>, tensor<3x8xbf16>
}

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @unary
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[NEG:.*]] = uta.neg %[[X]] : tensor<4xf32>
  %0 = uta.neg %x : tensor<4xf32>
  // CHECK: %[[ABS:.*]] = uta.abs %[[NEG]] : tensor<4xf32>
  %1 = uta.abs %0 : tensor<4xf32>
  // CHECK: %[[EXP:.*]] = uta.exp %[[ABS]] : tensor<4xf32>
  %2 = uta.exp %1 : tensor<4xf32>
  // CHECK: %[[LOG:.*]] = uta.log %[[EXP]] : tensor<4xf32>
  %3 = uta.log %2 : tensor<4xf32>
  // CHECK: %[[SQRT:.*]] = uta.sqrt %[[LOG]] : tensor<4xf32>
  %4 = uta.sqrt %3 : tensor<4xf32>
  // CHECK: %[[RSQRT:.*]] = uta.rsqrt %[[SQRT]] : tensor<4xf32>
  %5 = uta.rsqrt %4 : tensor<4xf32>
  // CHECK: %[[TANH:.*]] = uta.tanh %[[RSQRT]] : tensor<4xf32>
  %6 = uta.tanh %5 : tensor<4xf32>
  // CHECK: %[[ERF:.*]] = uta.erf %[[TANH]] : tensor<4xf32>
  %erf = uta.erf %6 : tensor<4xf32>
  // CHECK: %[[SIG:.*]] = uta.sigmoid %[[ERF]] : tensor<4xf32>
  %7 = uta.sigmoid %erf : tensor<4xf32>
  // CHECK: %[[RELU:.*]] = uta.relu %[[SIG]] : tensor<4xf32>
  %8 = uta.relu %7 : tensor<4xf32>
  // CHECK: %[[SILU:.*]] = uta.silu %[[RELU]] : tensor<4xf32>
  %9 = uta.silu %8 : tensor<4xf32>
  // CHECK: %[[SIGN:.*]] = uta.sign %[[SILU]] : tensor<4xf32>
  %10 = uta.sign %9 : tensor<4xf32>
  // CHECK: return %[[SIGN]]
  return %10 : tensor<4xf32>
}

// The default (exact erf form) is elided; the tanh form is printed.
// CHECK-LABEL: func @gelu
func.func @gelu(%x: tensor<2x4xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>) {
  // CHECK: uta.gelu %{{.*}} : tensor<2x4xbf16>
  %0 = uta.gelu %x : tensor<2x4xbf16>
  // CHECK: uta.gelu %{{.*}} {tanh_approximation = true} : tensor<2x4xbf16>
  %1 = uta.gelu %x {tanh_approximation = true} : tensor<2x4xbf16>
  // CHECK: uta.gelu %{{.*}} : tensor<2x4xbf16>
  %2 = uta.gelu %x {tanh_approximation = false} : tensor<2x4xbf16>
  return %0, %1, %2 : tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>
}
// GENERIC-LABEL: sym_name = "gelu"
// GENERIC: "uta.gelu"(%{{.*}}) <{tanh_approximation = false}> : (tensor<2x4xbf16>) -> tensor<2x4xbf16>
// GENERIC: "uta.gelu"(%{{.*}}) <{tanh_approximation = true}> : (tensor<2x4xbf16>) -> tensor<2x4xbf16>

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @matmul
//  CHECK-SAME:   (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[A3:.*]]: tensor<2x4x8xf32>, %[[W:.*]]: tensor<16x8xf32>, %[[B3:.*]]: tensor<3x1x8x16xf32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>,
                  %a3: tensor<2x4x8xf32>, %w: tensor<16x8xf32>,
                  %b3: tensor<3x1x8x16xf32>)
    -> (tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<3x1x4x16xf32>, tensor<3x2x4x16xf32>) {
  // CHECK: uta.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = uta.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // A rank-2 rhs under a rank-3 lhs, with transpose_b.
  // CHECK: uta.matmul %[[A3]], %[[W]] {transpose_b = true} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  %1 = uta.matmul %a3, %w {transpose_b = true} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  // A rank-2 lhs under a rank-4 rhs.
  // CHECK: uta.matmul %[[A]], %[[B3]] : (tensor<4x8xf32>, tensor<3x1x8x16xf32>) -> tensor<3x1x4x16xf32>
  %2 = uta.matmul %a, %b3 : (tensor<4x8xf32>, tensor<3x1x8x16xf32>) -> tensor<3x1x4x16xf32>
  // Batch dims [2] and [3, 1] broadcast to [3, 2]; the default flag is elided.
  // CHECK: uta.matmul %[[A3]], %[[B3]] : (tensor<2x4x8xf32>, tensor<3x1x8x16xf32>) -> tensor<3x2x4x16xf32>
  %3 = uta.matmul %a3, %b3 {transpose_b = false} : (tensor<2x4x8xf32>, tensor<3x1x8x16xf32>) -> tensor<3x2x4x16xf32>
  return %0, %1, %2, %3 : tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<3x1x4x16xf32>, tensor<3x2x4x16xf32>
}
// GENERIC-LABEL: sym_name = "matmul"
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = false, transpose_b = false}> : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = false, transpose_b = true}> : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>

// CHECK-LABEL: func @matmul_half
func.func @matmul_half(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>,
                       %c: tensor<4x8xbf16>, %d: tensor<2x8xbf16>)
    -> (tensor<4x2xf16>, tensor<4x2xbf16>) {
  // CHECK: uta.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  %0 = uta.matmul %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  // CHECK: uta.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<4x8xbf16>, tensor<2x8xbf16>) -> tensor<4x2xbf16>
  %1 = uta.matmul %c, %d {transpose_b = true} : (tensor<4x8xbf16>, tensor<2x8xbf16>) -> tensor<4x2xbf16>
  return %0, %1 : tensor<4x2xf16>, tensor<4x2xbf16>
}

// transpose_a: lhs is [K, M]; with transpose_b too, rhs is [N, K].
// CHECK-LABEL: func @matmul_transpose_a
func.func @matmul_transpose_a(%x: tensor<2x64x4xf32>, %g: tensor<2x64x16xf32>,
                              %h: tensor<16x64xbf16>, %y: tensor<64x4xbf16>)
    -> (tensor<2x4x16xf32>, tensor<4x16xbf16>) {
  // CHECK: uta.matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<2x64x4xf32>, tensor<2x64x16xf32>) -> tensor<2x4x16xf32>
  %0 = uta.matmul %x, %g {transpose_a = true} : (tensor<2x64x4xf32>, tensor<2x64x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: uta.matmul %{{.*}}, %{{.*}} {transpose_a = true, transpose_b = true} : (tensor<64x4xbf16>, tensor<16x64xbf16>) -> tensor<4x16xbf16>
  %1 = uta.matmul %y, %h {transpose_a = true, transpose_b = true} : (tensor<64x4xbf16>, tensor<16x64xbf16>) -> tensor<4x16xbf16>
  return %0, %1 : tensor<2x4x16xf32>, tensor<4x16xbf16>
}
// GENERIC-LABEL: sym_name = "matmul_transpose_a"
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = true, transpose_b = false}>
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = true, transpose_b = true}>

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @reductions
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x4x8xf32>)
func.func @reductions(%x: tensor<2x4x8xf32>)
    -> (tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<f32>, tensor<4xf32>) {
  // CHECK: uta.reduce_sum %[[X]] dims [2] : tensor<2x4x8xf32> -> tensor<2x4xf32>
  %0 = uta.reduce_sum %x dims [2] : tensor<2x4x8xf32> -> tensor<2x4xf32>
  // CHECK: uta.reduce_max %[[X]] dims [1, 2] {keep_dims = true} : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
  %1 = uta.reduce_max %x dims [1, 2] {keep_dims = true} : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
  // All dims reduced without keep_dims gives a rank-0 tensor.
  // CHECK: uta.reduce_mean %[[X]] dims [0, 1, 2] : tensor<2x4x8xf32> -> tensor<f32>
  %2 = uta.reduce_mean %x dims [0, 1, 2] {keep_dims = false} : tensor<2x4x8xf32> -> tensor<f32>
  // CHECK: uta.reduce_sum %[[X]] dims [0, 2] : tensor<2x4x8xf32> -> tensor<4xf32>
  %3 = uta.reduce_sum %x dims [0, 2] : tensor<2x4x8xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<f32>, tensor<4xf32>
}
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "uta.reduce_sum"(%{{.*}}) <{dims = array<i64: 2>, keep_dims = false}> : (tensor<2x4x8xf32>) -> tensor<2x4xf32>
// GENERIC: "uta.reduce_max"(%{{.*}}) <{dims = array<i64: 1, 2>, keep_dims = true}> : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @softmax
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
func.func @softmax(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: uta.softmax %[[X]] dim 1 : tensor<4x8xf32>
  %0 = uta.softmax %x dim 1 : tensor<4x8xf32>
  // CHECK: uta.softmax %[[X]] dim 0 : tensor<4x8xf32>
  %1 = uta.softmax %x dim 0 : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
// GENERIC-LABEL: sym_name = "softmax"
// GENERIC: "uta.softmax"(%{{.*}}) <{dim = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>

// CHECK-LABEL: func @layer_norm
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x4x8xf32>, %[[W1:.*]]: tensor<8xf32>, %[[B1:.*]]: tensor<8xf32>, %[[W2:.*]]: tensor<4x8xf32>, %[[B2:.*]]: tensor<4x8xf32>)
func.func @layer_norm(%x: tensor<2x4x8xf32>, %w1: tensor<8xf32>,
                      %b1: tensor<8xf32>, %w2: tensor<4x8xf32>,
                      %b2: tensor<4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  // The default epsilon (1e-5) is elided.
  // CHECK: uta.layer_norm %[[X]], %[[W1]], %[[B1]] axis 2 : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %0 = uta.layer_norm %x, %w1, %b1 axis 2 : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  // 1e-6 is not exact in f32: it prints as the nearest float.
  // CHECK: uta.layer_norm %[[X]], %[[W2]], %[[B2]] axis 1 {epsilon = 9.99999997E-7 : f32} : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %1 = uta.layer_norm %x, %w2, %b2 axis 1 {epsilon = 1.0e-06 : f32} : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %0, %1 : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}
// GENERIC-LABEL: sym_name = "layer_norm"
// GENERIC: "uta.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 2 : i64, epsilon = 9.99999974E-6 : f32}>
// GENERIC: "uta.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64, epsilon = 9.99999997E-7 : f32}>

//===----------------------------------------------------------------------===//
// Data movement and conversion
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @transpose
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x4x8xf16>)
func.func @transpose(%x: tensor<2x4x8xf16>) -> (tensor<8x2x4xf16>, tensor<2x4x8xf16>) {
  // CHECK: uta.transpose %[[X]] [2, 0, 1] : tensor<2x4x8xf16> -> tensor<8x2x4xf16>
  %0 = uta.transpose %x [2, 0, 1] : tensor<2x4x8xf16> -> tensor<8x2x4xf16>
  // CHECK: uta.transpose %[[X]] [0, 1, 2] : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  %1 = uta.transpose %x [0, 1, 2] : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  return %0, %1 : tensor<8x2x4xf16>, tensor<2x4x8xf16>
}
// GENERIC-LABEL: sym_name = "transpose"
// GENERIC: "uta.transpose"(%{{.*}}) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x4x8xf16>) -> tensor<8x2x4xf16>

// CHECK-LABEL: func @transpose_round_to_tf32
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
func.func @transpose_round_to_tf32(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // CHECK: uta.transpose %[[X]] [1, 0] {round_to_tf32} : tensor<4x8xf32> -> tensor<8x4xf32>
  %0 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// GENERIC-LABEL: sym_name = "transpose_round_to_tf32"
// GENERIC: "uta.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>, round_to_tf32}> : (tensor<4x8xf32>) -> tensor<8x4xf32>

// CHECK-LABEL: func @reshape
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xbf16>)
func.func @reshape(%x: tensor<4x8xbf16>) -> (tensor<32xbf16>, tensor<2x1x16xbf16>) {
  // CHECK: uta.reshape %[[X]] : tensor<4x8xbf16> -> tensor<32xbf16>
  %0 = uta.reshape %x : tensor<4x8xbf16> -> tensor<32xbf16>
  // CHECK: uta.reshape %[[X]] : tensor<4x8xbf16> -> tensor<2x1x16xbf16>
  %1 = uta.reshape %x : tensor<4x8xbf16> -> tensor<2x1x16xbf16>
  return %0, %1 : tensor<32xbf16>, tensor<2x1x16xbf16>
}

// CHECK-LABEL: func @broadcast_to
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x1xf32>, %[[S:.*]]: tensor<f32>)
func.func @broadcast_to(%x: tensor<4x1xf32>, %s: tensor<f32>) -> (tensor<2x4x8xf32>, tensor<3xf32>) {
  // CHECK: uta.broadcast_to %[[X]] : tensor<4x1xf32> -> tensor<2x4x8xf32>
  %0 = uta.broadcast_to %x : tensor<4x1xf32> -> tensor<2x4x8xf32>
  // CHECK: uta.broadcast_to %[[S]] : tensor<f32> -> tensor<3xf32>
  %1 = uta.broadcast_to %s : tensor<f32> -> tensor<3xf32>
  return %0, %1 : tensor<2x4x8xf32>, tensor<3xf32>
}

// CHECK-LABEL: func @cast
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
func.func @cast(%x: tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<4x8xbf16>) {
  // CHECK: %[[H:.*]] = uta.cast %[[X]] : tensor<4x8xf32> -> tensor<4x8xf16>
  %0 = uta.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  // CHECK: uta.cast %[[H]] : tensor<4x8xf16> -> tensor<4x8xbf16>
  %1 = uta.cast %0 : tensor<4x8xf16> -> tensor<4x8xbf16>
  return %0, %1 : tensor<4x8xf16>, tensor<4x8xbf16>
}
// GENERIC-LABEL: sym_name = "cast"
// GENERIC: "uta.cast"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf16>
