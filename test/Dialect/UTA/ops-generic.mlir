// Files written in MLIR's generic form with the attributes in the `{...}`
// attribute dictionary (not `<{...}>` properties) parse, with every
// defaulted attribute left out, and print in the custom form.
// RUN: uta-opt %s -split-input-file | FileCheck %s
// Defaults left out of the input are filled in: the generic printer shows
// them as properties.
// RUN: uta-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK: %[[ADD:.*]] = uta.add %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = "uta.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[MIN:.*]] = uta.min %[[ADD]], %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "uta.min"(%0, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[SIG:.*]] = uta.sigmoid %[[MIN]] : tensor<4x8xf32>
  %2 = "uta.sigmoid"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[G0:.*]] = uta.gelu %[[SIG]] : tensor<4x8xf32>
  %3 = "uta.gelu"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: uta.gelu %[[G0]] {tanh_approximation = true} : tensor<4x8xf32>
  %4 = "uta.gelu"(%3) {tanh_approximation = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}
// GENERIC-LABEL: sym_name = "elementwise"
// GENERIC: "uta.gelu"(%{{.*}}) <{tanh_approximation = false}>
// GENERIC: "uta.gelu"(%{{.*}}) <{tanh_approximation = true}>

// -----

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<2x4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<8x16xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>) {
  // CHECK: uta.matmul %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %0 = "uta.matmul"(%a, %b) : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: uta.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  %1 = "uta.matmul"(%a, %w) {transpose_b = true} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  return %0, %1 : tensor<2x4x16xf32>, tensor<2x4x16xf32>
}
// GENERIC-LABEL: sym_name = "matmul"
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = false, transpose_b = false}>
// GENERIC: "uta.matmul"(%{{.*}}, %{{.*}}) <{transpose_a = false, transpose_b = true}>

// -----

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<8xf32>, tensor<f32>) {
  // CHECK: uta.reduce_sum %{{.*}} dims [1] {keep_dims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %0 = "uta.reduce_sum"(%x) {dims = array<i64: 1>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // CHECK: uta.reduce_max %{{.*}} dims [0] : tensor<4x8xf32> -> tensor<8xf32>
  %1 = "uta.reduce_max"(%x) {dims = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<8xf32>
  // CHECK: uta.reduce_mean %{{.*}} dims [0, 1] : tensor<4x8xf32> -> tensor<f32>
  %2 = "uta.reduce_mean"(%x) {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<4x1xf32>, tensor<8xf32>, tensor<f32>
}
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "uta.reduce_sum"(%{{.*}}) <{dims = array<i64: 1>, keep_dims = true}>
// GENERIC: "uta.reduce_max"(%{{.*}}) <{dims = array<i64: 0>, keep_dims = false}>

// -----

// CHECK-LABEL: func @norms
func.func @norms(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: uta.softmax %{{.*}} dim 1 : tensor<4x8xf32>
  %0 = "uta.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: uta.layer_norm %{{.*}}, %{{.*}}, %{{.*}} axis 1 {epsilon = 9.99999997E-7 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "uta.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-06 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: uta.layer_norm %{{.*}}, %{{.*}}, %{{.*}} axis 1 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = "uta.layer_norm"(%x, %w, %b) {axis = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
// The omitted epsilon is the default 1e-5 (nearest f32: 9.99999974E-6).
// GENERIC-LABEL: sym_name = "norms"
// GENERIC: "uta.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64, epsilon = 9.99999997E-7 : f32}>
// GENERIC: "uta.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64, epsilon = 9.99999974E-6 : f32}>

// -----

// CHECK-LABEL: func @data_movement
func.func @data_movement(%x: tensor<4x8xf32>)
    -> (tensor<8x4xf32>, tensor<32xf32>, tensor<2x4x8xf32>, tensor<4x8xbf16>) {
  // CHECK: uta.transpose %{{.*}} [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %0 = "uta.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // CHECK: uta.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %1 = "uta.reshape"(%x) : (tensor<4x8xf32>) -> tensor<32xf32>
  // CHECK: uta.broadcast_to %{{.*}} : tensor<4x8xf32> -> tensor<2x4x8xf32>
  %2 = "uta.broadcast_to"(%x) : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
  // CHECK: uta.cast %{{.*}} : tensor<4x8xf32> -> tensor<4x8xbf16>
  %3 = "uta.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<32xf32>, tensor<2x4x8xf32>, tensor<4x8xbf16>
}
