// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" -verify-diagnostics | FileCheck %s

// A splat constant of more than 64 KiB is filled by a kernel from a
// one-element global: as data, a 2^20 x 2^20 fill was written element by
// element into the manifest and never finished. A small splat stays data.

// CHECK-LABEL: memref.global "private" constant @large_splat_constant0 : memref<1xf32> = dense<1.500000e+00>
//   CHECK-NOT: memref.global {{.*}}memref<128x256xf32>
// CHECK-LABEL: func.func @large_splat
//       CHECK:   %[[ONE:.*]] = memref.get_global @large_splat_constant0 : memref<1xf32>
//       CHECK:   %[[FILL:.*]] = memref.alloc() : memref<128x256xf32>
//       CHECK:   gpu.launch_func @kernels::@large_splat_k0_broadcast_to
//  CHECK-SAME:     args(%[[ONE]] : memref<1xf32>, %[[FILL]] : memref<128x256xf32>
//       CHECK:   return %[[FILL]]
func.func @large_splat() -> tensor<128x256xf32> {
  %0 = arith.constant dense<1.5> : tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

// -----

// The filled buffer is read like any other (here by an add's kernel).
// CHECK-LABEL: func.func @large_splat_operand
//       CHECK:   gpu.launch_func @kernels::@large_splat_operand_k0_broadcast_to
//       CHECK:   gpu.launch_func @kernels::@large_splat_operand_k1_add
func.func @large_splat_operand(%x: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %0 = arith.constant dense<2.0> : tensor<256x256xf16>
  %1 = uta.add %x, %0 : (tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf16>
  return %1 : tensor<256x256xf16>
}

// -----

// CHECK-LABEL: memref.global "private" constant @small_splat_constant0 : memref<4x8xf32> = dense<1.500000e+00>
// CHECK-LABEL: func.func @small_splat
//   CHECK-NOT:   broadcast_to
//       CHECK:   gpu.launch_func @kernels::@small_splat_k0_add
//   CHECK-NOT:   broadcast_to
//       CHECK:   return
func.func @small_splat(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.constant dense<1.5> : tensor<4x8xf32>
  %1 = uta.add %x, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A fill larger than a kernel can be is refused at the constant, at once.
func.func @huge_splat() -> tensor<1048576x1048576xf32> {
  // expected-error@+1 {{needs 1099511627776 threads; kernels are limited to 2^31 - 1}}
  %0 = arith.constant dense<1.5> : tensor<1048576x1048576xf32>
  return %0 : tensor<1048576x1048576xf32>
}
