// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" | FileCheck %s

// Every result of the host function is a buffer of its own, so that a run
// on the caller's result buffers writes each of them: a value returned
// twice is copied the second time (the manifest of `return %0, %0` named
// one buffer twice, which its runtime refused), as are an argument and a
// constant returned as results. The copy is an identity broadcast.

// CHECK-LABEL: func.func @returned_twice
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   gpu.launch_func @kernels::@returned_twice_k0_exp
//       CHECK:   %[[C:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   gpu.launch_func @kernels::@returned_twice_k1_broadcast_to
//  CHECK-SAME:     args(%[[E]] : memref<8xf32>, %[[C]] : memref<8xf32>
//       CHECK:   return %[[E]], %[[C]]
func.func @returned_twice(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = uta.exp %x : tensor<8xf32>
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}

// -----

// The two copies are the same kernel, launched twice.
// CHECK-LABEL: func.func @argument_and_constant
//  CHECK-SAME:   (%[[X:.*]]: memref<8xf32>)
//       CHECK:   %[[K:.*]] = memref.get_global @argument_and_constant_constant0
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   gpu.launch_func @kernels::@argument_and_constant_k0_broadcast_to
//  CHECK-SAME:     args(%[[X]] : memref<8xf32>, %[[A]] : memref<8xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<8xf32>
//       CHECK:   gpu.launch_func @kernels::@argument_and_constant_k0_broadcast_to
//  CHECK-SAME:     args(%[[K]] : memref<8xf32>, %[[B]] : memref<8xf32>
//       CHECK:   return %[[A]], %[[B]]
func.func @argument_and_constant(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  return %x, %c : tensor<8xf32>, tensor<8xf32>
}

// -----

// Two distinct values need no copy.
// CHECK-LABEL: func.func @distinct
//   CHECK-NOT:   broadcast_to
//       CHECK:   return
func.func @distinct(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = uta.exp %x : tensor<8xf32>
  %1 = uta.neg %x : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
