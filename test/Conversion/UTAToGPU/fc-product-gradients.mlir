// RUN: uta-opt %s -split-input-file -uta-plan-gemms="sm=80" | FileCheck %s --check-prefix=PLAN
// RUN: uta-opt %s -split-input-file -uta-plan-gemms="sm=90 arch-specific=true allow-tf32=true" | FileCheck %s --check-prefix=LARGE
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT

// fc_product's gradients on the GEMM engine's mma.sync schedule (on every
// CUDA architecture), with the plans uta-plan-gemms attaches; without CUDA
// tensor cores, SIMT kernels without tables.

// fc_product_adjoint: one block per (result blade, row tile, column tile);
// the tile keeps at most 64 accumulators per thread, its fold as many sums,
// and is the largest such that gives every SM a block, else (here) the
// smallest: mma64x64x16. Per step the cotangent's blade and the
// path come from constant switches; after a term's last K tile (an scf.if
// inside the K loop) its products, scaled by the sign and the other
// operand, are added to the sums.
// PLAN-LABEL: func.func @adjoint
//       PLAN:   clifford.fc_product_adjoint {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">
// CHECK-LABEL: func.func @adjoint
//       CHECK:   gpu.launch_func @kernels::@adjoint_k0_fc_product_adjoint blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)
//  CHECK-SAME:     uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">
// CHECK-LABEL: gpu.func @adjoint_k0_fc_product_adjoint
//       CHECK:   scf.index_switch
//       CHECK:   scf.for {{.*}} iter_args
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     nvgpu.mma.sync
//       CHECK:     scf.if
//       CHECK:       memref.load %arg1
//       CHECK:       arith.mulf
//       CHECK:       arith.addf
// SIMT-LABEL: gpu.func @adjoint_k0_fc_product_adjoint
//   SIMT-NOT:   scf.index_switch
//       SIMT:   scf.for %{{.*}} = %c0 to %c48 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32)
//   SIMT-NOT:   nvgpu.mma.sync
func.func @adjoint(%g: tensor<4x64x48xf32>, %y: tensor<4x64x32xf32>, %w: tensor<10x32x48xf32>) -> tensor<4x64x32xf32> {
  %r = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w : (tensor<4x64x48xf32>, tensor<4x64x32xf32>, tensor<10x32x48xf32>) -> tensor<4x64x32xf32>
  return %r : tensor<4x64x32xf32>
}

// -----

// fc_product_weight_gradient with K-major weights: one block per (path,
// row tile, column tile) on fc_product's table (two-term slots), x and y
// staged as they lie ([batch][features]: the K rows) and read transposed
// by plain shared loads; the epilogue stores result[path, o, f].
// PLAN-LABEL: func.func @weight_gradient
//       PLAN:   clifford.fc_product_weight_gradient {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 16], warps = [2, 2], stages = 2, precision = "3xtf32">
// CHECK-LABEL: func.func @weight_gradient
//       CHECK:   gpu.launch_func @kernels::@weight_gradient_k0_fc_product_weight_gradient blocks in (%c10, %c1, %c1) threads in (%c128, %c1, %c1)
// CHECK-LABEL: gpu.func @weight_gradient_k0_fc_product_weight_gradient
//       CHECK:   memref.view {{.*}} to memref<2x16x64xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.for {{.*}} iter_args
//   CHECK-NOT:     nvgpu.ldmatrix
//       CHECK:     nvgpu.mma.sync
// SIMT-LABEL: gpu.func @weight_gradient_k0_fc_product_weight_gradient
//       SIMT:   scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
//   SIMT-NOT:   nvgpu.mma.sync
func.func @weight_gradient(%g: tensor<4x64x48xf32>, %x: tensor<4x64x32xf32>) -> tensor<10x48x32xf32> {
  %r = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {transpose_weights = true} : (tensor<4x64x48xf32>, tensor<4x64x32xf32>, tensor<4x64x32xf32>) -> tensor<10x48x32xf32>
  return %r : tensor<10x48x32xf32>
}

// -----

// At the FC layer's size (B = 8192, F = 512) the largest tile with 64
// accumulators per thread fills the GPU: 128x128 on 8 warps, in plain TF32
// (mma.sync also on sm_90a).
// LARGE-LABEL: func.func @adjoint_large
//       LARGE:   clifford.fc_product_adjoint {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 128, 16], warps = [2, 4], stages = 4, precision = "tf32">
func.func @adjoint_large(%g: tensor<8x8192x512xf32>, %y: tensor<8x8192x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<8x8192x512xf32> {
  %r = clifford.fc_product_adjoint <3, 0, 0> rhs %g, %y, %w : (tensor<8x8192x512xf32>, tensor<8x8192x512xf32>, tensor<20x512x512xf32>) -> tensor<8x8192x512xf32>
  return %r : tensor<8x8192x512xf32>
}

// -----

// With every operand batch-contiguous (as uta-tensor-core-layouts gives it on
// sm_90a) the weight gradient runs on fc_product's warp-specialised kernel:
// its TMA rows, plain TF32 with K tiles outer. Pairs given as they lie stay
// on mma.sync.
// LARGE-LABEL: func.func @weight_gradient_k_major
//       LARGE:   clifford.fc_product_weight_gradient {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 3>
//       LARGE:   clifford.fc_product_weight_gradient {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync"
func.func @weight_gradient_k_major(%g: tensor<8x512x8192xf32>, %x: tensor<8x512x8192xf32>, %h: tensor<8x8192x512xf32>, %y: tensor<8x8192x512xf32>) -> (tensor<20x512x512xf32>, tensor<20x512x512xf32>) {
  %a = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_cotangent = true, transpose_pairs = true} : (tensor<8x512x8192xf32>, tensor<8x512x8192xf32>, tensor<8x512x8192xf32>) -> tensor<20x512x512xf32>
  %b = clifford.fc_product_weight_gradient <3, 0, 0> %h, %y, %y : (tensor<8x8192x512xf32>, tensor<8x8192x512xf32>, tensor<8x8192x512xf32>) -> tensor<20x512x512xf32>
  return %a, %b : tensor<20x512x512xf32>, tensor<20x512x512xf32>
}
