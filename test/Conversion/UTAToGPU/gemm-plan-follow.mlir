// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true" | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// convert-uta-to-gpu follows an op's #uta.gemm_plan, whoever wrote it:
// here a named-only row in plain TF32 on a target whose default is
// 3xTF32. Its four stages of 128x32 A and B tiles are the kernel's shared
// memory (128 KiB); its 128x128 tiles make 1024 blocks of 4 warps. The
// launch records the plan it runs.

// REMARK: remark: GEMM 4096x4096x4096 f32: mma.sync, tf32, tile mma128x128x32f32s4 (128x128x32, 4 warps of 64x64, 4 stages, 131072 B shared)
// CHECK-LABEL: func.func @follows_the_plan
//       CHECK:   gpu.launch_func @kernels::@{{.*}} blocks in (%{{.*}}) threads in (%{{.*}}) dynamic_shared_memory_size %c131072_i32{{.*}} {uta.flops = {tf32 = 137438953472 : i64}, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 128, 32], warps = [2, 2], stages = 4, precision = "tf32">}
//       CHECK:   gpu.func
//       CHECK:   memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
func.func @follows_the_plan(%a: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 128, 32], warps = [2, 2], stages = 4, precision = "tf32">} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// fc_product on the warp-specialised row with three weight stages, which
// the heuristic would not take at this size.
// REMARK: remark: fc_product on the GEMM engine, per result blade: 4096x256x64 f32: wgmma, warp-specialised, tf32, tile fctma128x256x32 {{.*}} K-major weights by TMA in 3 stages
// CHECK-LABEL: func.func @fc_product_follows_the_plan
//       CHECK:   gpu.launch_func {{.*}} blocks in (%c128,
func.func @fc_product_follows_the_plan(%x: tensor<4x4096x64xf32>, %y: tensor<4x4096x64xf32>, %w: tensor<10x256x64xf32>) -> tensor<4x4096x256xf32> {
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 3>} : (tensor<4x4096x64xf32>, tensor<4x4096x64xf32>, tensor<10x256x64xf32>) -> tensor<4x4096x256xf32>
  return %0 : tensor<4x4096x256xf32>
}

// -----

// fc_product_adjoint follows its plan too: the 4-warp 64x64 row on
// mma.sync, its schedule on every architecture.
// CHECK-LABEL: func.func @adjoint_planned
//       CHECK:   gpu.launch_func @kernels::@adjoint_planned_k0_fc_product_adjoint blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
//  CHECK-SAME:     uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">
func.func @adjoint_planned(%g: tensor<4x64x48xf32>, %y: tensor<4x64x32xf32>, %w: tensor<10x32x48xf32>) -> tensor<4x64x32xf32> {
  %r = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w {uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">} : (tensor<4x64x48xf32>, tensor<4x64x32xf32>, tensor<10x32x48xf32>) -> tensor<4x64x32xf32>
  return %r : tensor<4x64x32xf32>
}
