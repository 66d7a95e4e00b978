// RUN: uta-opt %s -split-input-file -uta-fuse-kernels | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels=policy=none | FileCheck %s --check-prefix=NONE

// An elementwise chain becomes one kernel rooted at its last op.
// CHECK-LABEL: func @fuse_chain
//       CHECK:   %[[R:.*]] = uta.fusion(%{{.*}}, %{{.*}}, %{{.*}})
//       CHECK:     uta.mul
//       CHECK:     uta.add
//       CHECK:     uta.gelu
//       CHECK:     uta.yield
//   CHECK-NOT:   uta.gelu
//       CHECK:   return %[[R]]
// With fusion off, every op stays its own kernel.
// NONE-LABEL: func @fuse_chain
//   NONE-NOT:   uta.fusion
func.func @fuse_chain(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.mul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %1 = uta.add %0, %c : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.gelu %1 : tensor<64xf32>
  return %2 : tensor<64xf32>
}

// -----

// A matmul with its bias and activation: the epilogue reads each product
// once, so the matmul is computed inside the activation's kernel.
// CHECK-LABEL: func @fuse_matmul_epilogue
//       CHECK:   uta.fusion
//       CHECK:     uta.matmul
//       CHECK:     uta.add
//       CHECK:     uta.gelu
//       CHECK:     uta.yield
func.func @fuse_matmul_epilogue(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  %1 = uta.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = uta.gelu %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// A value with two consumers stays in memory: recomputing the exp for each
// consumer would cost more than storing it once.
// CHECK-LABEL: func @no_fuse_multi_use
//       CHECK:   %[[E:.*]] = uta.exp
//       CHECK:   uta.add %[[E]], %[[E]]
func.func @no_fuse_multi_use(%a: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.exp %a : tensor<64xf32>
  %1 = uta.add %0, %0 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// A matmul re-reads each operand element N times: its producer stays a
// separate kernel instead of being recomputed N times.
// CHECK-LABEL: func @no_fuse_matmul_prologue
//       CHECK:   %[[E:.*]] = uta.exp
//   CHECK-NOT:   uta.fusion
//       CHECK:   uta.matmul %[[E]]
func.func @no_fuse_matmul_prologue(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.matmul %0, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A producer that a consumer broadcasts would be recomputed for every copy.
// CHECK-LABEL: func @no_fuse_broadcast_producer
//       CHECK:   %[[E:.*]] = uta.exp %{{.*}} : tensor<16xf32>
//       CHECK:   uta.mul %{{.*}}, %[[E]]
func.func @no_fuse_broadcast_producer(%a: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = uta.exp %b : tensor<16xf32>
  %1 = uta.mul %a, %0 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// A reduction needed by two consumers stays in memory; an elementwise
// producer of the reduction is folded into it.
// CHECK-LABEL: func @no_fuse_shared_reduction
//       CHECK:   %[[S:.*]] = uta.fusion
//       CHECK:     uta.exp
//       CHECK:     uta.reduce_sum
//       CHECK:   uta.sub %[[S]], %[[S]]
func.func @no_fuse_shared_reduction(%a: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.reduce_sum %0 dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %2 = uta.sub %1, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Reductions never absorb another reduction: the inner one would run
// serially inside each thread of the outer one.
// CHECK-LABEL: func @no_fuse_reduction_into_reduction
//       CHECK:   %[[I:.*]] = uta.reduce_sum %{{.*}} dims [1]
//       CHECK:   uta.reduce_max %[[I]] dims [0]
func.func @no_fuse_reduction_into_reduction(%a: tensor<8x16xf32>) -> tensor<f32> {
  %0 = uta.reduce_sum %a dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %1 = uta.reduce_max %0 dims [0] : tensor<8xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
