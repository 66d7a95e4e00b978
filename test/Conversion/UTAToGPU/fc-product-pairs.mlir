// RUN: uta-opt %s -split-input-file -uta-plan-gemms="sm=80" | FileCheck %s --check-prefix=PLAN
// RUN: uta-opt %s -split-input-file -uta-plan-gemms="sm=90 arch-specific=true allow-tf32=true" | FileCheck %s --check-prefix=LARGE
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT

// fc_product_pair_cotangents is one GEMM of the engine whose batch element
// q (a block per group, row tile and column tile: 14 groups in Cl(2,0))
// reads blade k of the cotangent and path p of the weights, chosen by a
// chain of selects on the block's batch index (no switch: SPIR-V and MSL
// take it); with CUDA tensor cores mma.sync, else the SIMT schedule.
// PLAN-LABEL: func.func @pair_cotangents
//       PLAN:   clifford.fc_product_pair_cotangents {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">
// CHECK-LABEL: func.func @pair_cotangents
//       CHECK:   gpu.launch_func @kernels::@pair_cotangents_k0_fc_product_pair_cotangents blocks in (%c14, %c1, %c1) threads in (%c128, %c1, %c1)
//  CHECK-SAME:     uta.flops = {"3xtf32" = 2752512 : i64}
// CHECK-LABEL: gpu.func @pair_cotangents_k0_fc_product_pair_cotangents
//       CHECK:   arith.select
//       CHECK:   scf.for {{.*}} iter_args
//       CHECK:     nvgpu.mma.sync
// SIMT-LABEL: gpu.func @pair_cotangents_k0_fc_product_pair_cotangents
//   SIMT-NOT:   scf.index_switch
//       SIMT:   arith.select
//   SIMT-NOT:   nvgpu.mma.sync
func.func @pair_cotangents(%g: tensor<4x64x48xf32>, %w: tensor<10x32x48xf32>) -> tensor<14x64x32xf32> {
  %t = clifford.fc_product_pair_cotangents <2, 0, 0> %g, %w : (tensor<4x64x48xf32>, tensor<10x32x48xf32>) -> tensor<14x64x32xf32>
  return %t : tensor<14x64x32xf32>
}

// -----

// fc_product_pair_adjoint: a thread per (b, f) computes every result
// blade, from each term's other blade and group's pair cotangent; no GEMM.
// PLAN-LABEL: func.func @pair_adjoint
//   PLAN-NOT:   uta.gemm_plan
//       PLAN:   return
// CHECK-LABEL: func.func @pair_adjoint
//       CHECK:   gpu.launch_func @kernels::@pair_adjoint_k0_fc_product_pair_adjoint blocks in (%c8, %c1, %c1) threads in (%c256, %c1, %c1)
//  CHECK-SAME:     uta.flops = {simt = 98304 : i64}
// CHECK-LABEL: gpu.func @pair_adjoint_k0_fc_product_pair_adjoint
//   CHECK-NOT:   nvgpu.mma.sync
//       CHECK:   memref.store
func.func @pair_adjoint(%t: tensor<14x64x32xf32>, %y: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %r = clifford.fc_product_pair_adjoint <2, 0, 0> lhs %t, %y : (tensor<14x64x32xf32>, tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %r : tensor<4x64x32xf32>
}

// -----

// fc_product_pair_adjoints: one kernel of two result buffers (after the
// inputs, before the thread count), which the launch records in
// uta.launch_results; a thread per (b, f) reads each group's pair cotangent
// once (14 loads of the pairs in Cl(2,0)) and stores 4 blades of each result.
// CHECK-LABEL: func.func @pair_adjoints
//       CHECK:   gpu.launch_func @kernels::@pair_adjoints_k0_fc_product_pair_adjoints blocks in (%c8, %c1, %c1) threads in (%c256, %c1, %c1) args(%{{.+}} : memref<14x64x32xf32>, %{{.+}} : memref<4x64x32xf32>, %{{.+}} : memref<4x64x32xf32>, %{{.+}} : memref<4x64x32xf32>, %{{.+}} : memref<4x64x32xf32>, %{{.+}} : i32)
//  CHECK-SAME:     uta.launch_results = array<i32: 2>
// CHECK-LABEL: gpu.func @pair_adjoints_k0_fc_product_pair_adjoints
//  CHECK-SAME:   (%[[T:[^:]+]]: memref<14x64x32xf32>, %{{[^:]+}}: memref<4x64x32xf32>, %{{[^:]+}}: memref<4x64x32xf32>, %[[DX:[^:]+]]: memref<4x64x32xf32>, %[[DY:[^:]+]]: memref<4x64x32xf32>, %{{[^:]+}}: i32)
// CHECK-COUNT-14: memref.load %[[T]]
//   CHECK-NOT:   memref.load %[[T]]
// CHECK-COUNT-4:   memref.store %{{.+}}, %[[DX]]
// CHECK-COUNT-4:   memref.store %{{.+}}, %[[DY]]
func.func @pair_adjoints(%t: tensor<14x64x32xf32>, %x: tensor<4x64x32xf32>, %y: tensor<4x64x32xf32>) -> (tensor<4x64x32xf32>, tensor<4x64x32xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x64x32xf32>, tensor<4x64x32xf32>, tensor<4x64x32xf32>) -> (tensor<4x64x32xf32>, tensor<4x64x32xf32>)
  return %dx, %dy : tensor<4x64x32xf32>, tensor<4x64x32xf32>
}

// -----

// At the FC layer's size the grouped GEMM is a plain large GEMM of 44
// batch elements: sm_90a's warp-specialised TMA schedule, as a matmul of
// that shape gets.
// LARGE-LABEL: func.func @pair_cotangents_large
//       LARGE:   clifford.fc_product_pair_cotangents {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32">
func.func @pair_cotangents_large(%g: tensor<8x8192x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<44x8192x512xf32> {
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x8192x512xf32>, tensor<20x512x512xf32>) -> tensor<44x8192x512xf32>
  return %t : tensor<44x8192x512xf32>
}
