// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="vectorize=false" | FileCheck %s

// A fused chain is one kernel: it loads the inputs, recomputes the chain in
// registers, and stores only the root.
// CHECK-LABEL: func.func @chain
//       CHECK:   gpu.launch_func @kernels::@chain_k0_exp
//   CHECK-NOT:   gpu.launch_func
//       CHECK: gpu.func @chain_k0_exp(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>, %{{.*}}: i32)
//       CHECK:   %[[X:.*]] = memref.load %[[A]]
//       CHECK:   %[[Y:.*]] = memref.load %[[B]]
//       CHECK:   %[[M:.*]] = arith.mulf %[[X]], %[[Y]]
//       CHECK:   %[[E:.*]] = math.exp %[[M]]
//       CHECK:   memref.store %[[E]], %[[OUT]]
//   CHECK-NOT:   memref.store
func.func @chain(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.mul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %1 = uta.exp %0 : tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// A recomputed f16 intermediate is rounded to f16 exactly as a stored one
// would be, so fusion does not change results.
// CHECK-LABEL: gpu.func @half_k0_exp
//       CHECK:   %[[M:.*]] = arith.mulf
//       CHECK:   %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
//       CHECK:   %[[W:.*]] = arith.extf %[[T]] : f16 to f32
//       CHECK:   math.exp %[[W]]
func.func @half(%a: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<64xf16> {
  %0 = uta.mul %a, %b : (tensor<64xf16>, tensor<64xf16>) -> tensor<64xf16>
  %1 = uta.exp %0 : tensor<64xf16>
  return %1 : tensor<64xf16>
}
