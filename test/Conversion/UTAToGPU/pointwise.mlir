// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" | FileCheck %s

// Each op becomes one kernel launched over its output elements; a broadcast
// operand is read at the broadcast index (here: only the column).
// CHECK-LABEL: func.func @add_broadcast
//  CHECK-SAME:   (%[[X:.*]]: memref<5x7xf32>, %[[B:.*]]: memref<7xf32>) -> memref<5x7xf32>
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<5x7xf32>
//       CHECK:   gpu.launch_func @kernels::@add_broadcast_k0_add
//  CHECK-SAME:     args(%[[X]] : memref<5x7xf32>, %[[B]] : memref<7xf32>, %[[OUT]] : memref<5x7xf32>, %{{.*}} : i32)
//       CHECK:   return %[[OUT]]
//       CHECK: gpu.func @add_broadcast_k0_add(%[[A0:.*]]: memref<5x7xf32>, %[[A1:.*]]: memref<7xf32>, %[[A2:.*]]: memref<5x7xf32>, %[[N:.*]]: i32) kernel
//       CHECK:   scf.if
//       CHECK:     %[[COL:.*]] = arith.remui
//       CHECK:     %[[ROW:.*]] = arith.divui
//       CHECK:     %[[L:.*]] = memref.load %[[A0]][%[[ROW]], %[[COL]]]
//       CHECK:     %[[R:.*]] = memref.load %[[A1]][%[[COL]]]
//       CHECK:     %[[S:.*]] = arith.addf %[[L]], %[[R]]
//       CHECK:     memref.store %[[S]], %[[A2]][%[[ROW]], %[[COL]]]
func.func @add_broadcast(%x: tensor<5x7xf32>, %b: tensor<7xf32>) -> tensor<5x7xf32> {
  %0 = uta.add %x, %b : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

// -----

// f16 is widened on read and narrowed on write; the math is f32.
// CHECK-LABEL: gpu.func @half_exp_k0_exp
//       CHECK:   %[[H:.*]] = memref.load {{.*}} : memref<9xf16>
//       CHECK:   %[[F:.*]] = arith.extf %[[H]] : f16 to f32
//       CHECK:   %[[E:.*]] = math.exp %[[F]] : f32
//       CHECK:   %[[T:.*]] = arith.truncf %[[E]] : f32 to f16
//       CHECK:   memref.store %[[T]]
func.func @half_exp(%x: tensor<9xf16>) -> tensor<9xf16> {
  %0 = uta.exp %x : tensor<9xf16>
  return %0 : tensor<9xf16>
}

// -----

// uta.erf and uta.pow are math.erf and math.powf in f32; the targets lower
// those (libdevice on PTX, a polynomial erf and GLSL Pow on SPIR-V).
// CHECK-LABEL: gpu.func @erf_pow_k0_erf
//       CHECK:   %[[X:.*]] = memref.load
//       CHECK:   math.erf %[[X]] : f32
// CHECK-LABEL: gpu.func @erf_pow_k1_pow
//       CHECK:   %[[A:.*]] = memref.load
//       CHECK:   %[[B:.*]] = memref.load
//       CHECK:   math.powf %[[A]], %[[B]] : f32
func.func @erf_pow(%x: tensor<9xf32>, %y: tensor<9xf32>) -> tensor<9xf32> {
  %0 = uta.erf %x : tensor<9xf32>
  %1 = uta.pow %0, %y : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
  return %1 : tensor<9xf32>
}

// -----

// Constants become read-only globals the manifest carries inline.
// CHECK-LABEL: memref.global "private" constant @with_constant_constant0 : memref<3xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-LABEL: func.func @with_constant
//       CHECK:   memref.get_global @with_constant_constant0
func.func @with_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = uta.mul %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A transpose reads the source at the permuted index.
// CHECK-LABEL: gpu.func @transpose_k0_transpose
//       CHECK:   %[[J:.*]] = arith.remui
//       CHECK:   %[[I:.*]] = arith.divui
//       CHECK:   memref.load %{{.*}}[%[[J]], %[[I]]] : memref<3x4xf32>
//       CHECK:   memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<4x3xf32>
func.func @transpose(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %0 = uta.transpose %x [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// A transpose of wider rows that moves the innermost axis goes through
// workgroup memory in 32x32 tiles: blocks of 256 threads (here 2 x 3 tiles
// of 40 x 70), four rows each read along the source's rows, a barrier,
// four written along the result's rows; tails guarded on both axes.
// CHECK-LABEL: func.func @transpose_tiled
//       CHECK:   gpu.launch_func @kernels::@transpose_tiled_k0_transpose blocks in (%c6, %{{.*}}, %{{.*}}) threads in (%c256,
// CHECK-LABEL: gpu.func @transpose_tiled_k0_transpose
//  CHECK-SAME:   workgroup(%[[TILE:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK-COUNT-4:   memref.store %{{.*}}, %[[TILE]]
//       CHECK:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
// CHECK-COUNT-4:   memref.load %[[TILE]]
func.func @transpose_tiled(%x: tensor<40x70xf32>) -> tensor<70x40xf32> {
  %0 = uta.transpose %x [1, 0] : tensor<40x70xf32> -> tensor<70x40xf32>
  return %0 : tensor<70x40xf32>
}

// -----

// round_to_tf32 rounds each moved element by its bits, to nearest with
// ties to even: add 0xfff plus the lowest kept bit, clear the 13 dropped
// bits; a NaN is stored as it was. Element by element and tiled alike.
// CHECK-LABEL: gpu.func @transpose_round_k0_transpose
//       CHECK:   %[[V:.*]] = memref.load %{{.*}} : memref<3x4xf32>
//       CHECK:   %[[B:.*]] = arith.bitcast %[[V]] : f32 to i32
//       CHECK:   %[[S:.*]] = arith.shrui %[[B]], %c13_i32
//       CHECK:   %[[L:.*]] = arith.andi %[[S]], %c1_i32
//       CHECK:   %[[H:.*]] = arith.addi %[[L]], %c4095_i32
//       CHECK:   %[[A:.*]] = arith.addi %[[B]], %[[H]]
//       CHECK:   %[[C:.*]] = arith.andi %[[A]], %c-8192_i32
//       CHECK:   %[[R:.*]] = arith.bitcast %[[C]] : i32 to f32
//       CHECK:   %[[N:.*]] = arith.cmpf uno, %[[V]], %[[V]]
//       CHECK:   %[[O:.*]] = arith.select %[[N]], %[[V]], %[[R]]
//       CHECK:   memref.store %[[O]]
// CHECK-LABEL: gpu.func @transpose_round_tiled_k0_transpose
//       CHECK:   gpu.barrier
// CHECK-COUNT-4:   arith.andi %{{.*}}, %c-8192_i32
func.func @transpose_round(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %0 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<3x4xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func @transpose_round_tiled(%x: tensor<40x70xf32>) -> tensor<70x40xf32> {
  %0 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<40x70xf32> -> tensor<70x40xf32>
  return %0 : tensor<70x40xf32>
}
