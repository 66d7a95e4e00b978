// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu | FileCheck %s

// One thread per output element loops over the reduced elements.
// CHECK-LABEL: gpu.func @sum_rows_k0_reduce_sum
//       CHECK:   %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32)
//       CHECK:     %[[X:.*]] = memref.load
//       CHECK:     %[[S:.*]] = arith.addf %[[A]], %[[X]]
//       CHECK:     scf.yield %[[S]]
//       CHECK:   memref.store %[[ACC]]
func.func @sum_rows(%x: tensor<6x11xf32>) -> tensor<6xf32> {
  %0 = uta.reduce_sum %x dims [1] : tensor<6x11xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// reduce_max starts from -inf and propagates NaN with maximumf.
// CHECK-LABEL: gpu.func @max_cols_k0_reduce_max
//       CHECK:   arith.constant 0xFF800000 : f32
//       CHECK:   scf.for
//       CHECK:     arith.maximumf
func.func @max_cols(%x: tensor<6x11xf32>) -> tensor<1x11xf32> {
  %0 = uta.reduce_max %x dims [0] {keep_dims = true} : tensor<6x11xf32> -> tensor<1x11xf32>
  return %0 : tensor<1x11xf32>
}

// -----

// softmax: a max pass, a sum-of-exponentials pass, a write pass per row.
// CHECK-LABEL: gpu.func @softmax_k0_softmax
//       CHECK:   scf.for
//       CHECK:     arith.maximumf
//       CHECK:   scf.for
//       CHECK:     math.exp
//       CHECK:   scf.for
//       CHECK:     arith.divf
//       CHECK:     memref.store
func.func @softmax(%x: tensor<3x17xf32>) -> tensor<3x17xf32> {
  %0 = uta.softmax %x dim 1 : tensor<3x17xf32>
  return %0 : tensor<3x17xf32>
}

// -----

// layer_norm: mean, variance (second pass), then the normalized write.
// CHECK-LABEL: gpu.func @norm_k0_layer_norm
//       CHECK:   scf.for
//       CHECK:   scf.for
//       CHECK:   math.sqrt
//       CHECK:   scf.for
func.func @norm(%x: tensor<4x10xf32>, %w: tensor<10xf32>, %b: tensor<10xf32>) -> tensor<4x10xf32> {
  %0 = uta.layer_norm %x, %w, %b axis 1 : (tensor<4x10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

