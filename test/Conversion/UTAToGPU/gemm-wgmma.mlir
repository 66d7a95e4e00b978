// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=wgmma128x256x32f32 allow-tf32=true" -canonicalize -cse | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90" -canonicalize -cse | FileCheck %s --check-prefix=SM90

// The wgmma schedule (sm_90a): a cp.async pipeline (four stages here, two
// tiles issued ahead) into tiles of 128-byte rows at 1024-byte aligned
// offsets of dynamic shared memory, swizzled by the row within groups of 8
// rows. Each step waits for its tile, fences the copies for the tensor
// cores' async proxy, passes one barrier, issues the tile two steps ahead,
// and issues one wgmma m64n128k16 per K step of 16 on shared-memory
// descriptors (address >> 4 | 128-byte swizzle, 1024 bytes between 8-row
// groups), leaving that group in flight while the next step starts (the
// stage it reads is three steps from being refilled); the last group is
// waited for after the loop. One warpgroup (128 threads) per 64x128 tile;
// the accumulators are an LLVM struct of 64 f32 per thread. The epilogue
// stages them where the tiles were (a 64 x 136 f32 view from the first
// tile's offset, rows padded by 8), in pairs, between two barriers; then
// each thread takes 4 consecutive elements of a row per turn (2048 groups,
// 128 threads) and stores them as one vector, inside the result only.
// CHECK-LABEL: func.func @linear
//       CHECK:   gpu.launch_func @kernels::@linear_k0_matmul blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c98304_i32
// CHECK-LABEL: gpu.func @linear_k0_matmul
//       CHECK:   %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32, f32,
//       CHECK:   %[[A:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x64x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[B:.*]] = memref.view %{{.*}}[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x128x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   arith.andi %{{.*}}, %c7 : index
//       CHECK:   nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], 8, %{{.*}} {bypassL1}
//       CHECK:   nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[B]][%c0, %{{.*}}, %{{.*}}], 8, %{{.*}} {bypassL1}
//       CHECK:   nvvm.cp.async.commit.group
//       CHECK:   nvvm.cp.async.commit.group
//  CHECK-NEXT:   scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (!llvm.struct<(f32,
//  CHECK-NEXT:     nvvm.cp.async.wait.group 1
//  CHECK-NEXT:     nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       nvgpu.device_async_copy
//       CHECK:     nvvm.cp.async.commit.group
//       CHECK:     memref.extract_aligned_pointer_as_index %[[A]]
//       CHECK:     memref.extract_aligned_pointer_as_index %[[B]]
//       CHECK:     arith.shrui %{{.*}}, %c4_i64 : i64
//       CHECK:     arith.andi %{{.*}}, %c16383_i64 : i64
//       CHECK:     %[[DESC_A:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
//       CHECK:     %[[DESC_B:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
//       CHECK:     nvvm.wgmma.fence.aligned
//       CHECK:     nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// The next K step of 16 is 32 bytes on: 2 in the descriptor's units.
//       CHECK:     arith.addi %[[DESC_A]], %c2_i64 : i64
//       CHECK:     nvvm.wgmma.mma_async
//       CHECK:     nvvm.wgmma.mma_async
//       CHECK:     nvvm.wgmma.mma_async
//   CHECK-NOT:     nvvm.wgmma.mma_async
//       CHECK:     nvvm.wgmma.commit.group.sync.aligned
//  CHECK-NEXT:     nvvm.wgmma.wait.group.sync.aligned 1
//  CHECK-NEXT:     scf.yield
//       CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
//  CHECK-NEXT:   nvvm.cp.async.wait.group 0
//       CHECK:   %[[STAGING:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x136xf32, #gpu.address_space<workgroup>>
//       CHECK:   gpu.barrier
//       CHECK:   llvm.extractvalue %{{.*}}[0]
//       CHECK:   vector.store %{{.*}}, %[[STAGING]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x136xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//       CHECK:   gpu.barrier
//       CHECK:   scf.for %{{.*}} = %c0 to %c2048 step %c128 {
//       CHECK:     vector.load %[[STAGING]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x136xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     scf.if
//       CHECK:       arith.truncf %{{.*}} : f32 to f16
//       CHECK:       vector.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<100x72xf16>, vector<4xf16>
//   CHECK-NOT:   memref.store %{{.*}}, %arg2[

// Without sm_90a's features (sm=90), the same matmul runs on mma.sync.
// SM90-LABEL: gpu.func @linear_k0_matmul
//   SM90-NOT:   nvvm.wgmma
//       SM90:   nvgpu.mma.sync
func.func @linear(%a: tensor<100x192xf16>, %b: tensor<72x192xf16>) -> tensor<100x72xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<100x192xf16>, tensor<72x192xf16>) -> tensor<100x72xf16>
  return %r : tensor<100x72xf16>
}

// -----

// 3xTF32 (three stages ahead, nothing in flight at the end of a step:
// it reads its fresh accumulators): after the barrier, every thread splits four f32 at a time of the
// stage's A and B tiles into the remainders x - high(x) (high: the 19 bits
// the tensor cores read), stored in tiles of their own; a second fence and
// barrier; then per K step of 8 three wgmmas (small A x high B, high A x
// small B, high A x high B) into fresh accumulators (the first with the
// accumulator input off), added to the running ones in f32.
// CHECK-LABEL: gpu.func @accurate_k0_matmul
//       CHECK:   memref.view %{{.*}}[%c0][] {{.*}} to memref<4x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view %{{.*}}[%c32768][] {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[SMALL_A:.*]] = memref.view %{{.*}}[%c98304][] {{.*}} to memref<64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[SMALL_B:.*]] = memref.view %{{.*}}[%c106496][] {{.*}} to memref<128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
//       CHECK:     gpu.barrier
//       CHECK:     nvvm.cp.async.commit.group
//       CHECK:     vector.load {{.*}} : memref<4x64x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     arith.andi %{{.*}}, %cst{{.*}} : vector<4xi32>
//       CHECK:     arith.subf %{{.*}} : vector<4xf32>
//       CHECK:     vector.store %{{.*}}, %[[SMALL_A]]
//       CHECK:     vector.store %{{.*}}, %[[SMALL_B]]
//       CHECK:     nvvm.fence.proxy
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     nvvm.wgmma.fence.aligned
//  CHECK-NEXT:     %[[T:.*]] = nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 8>, D[<f32>, <zero>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
//  CHECK-NEXT:     nvvm.wgmma.mma_async {{.*}}, %[[T]], <m = 64, n = 128, k = 8>, D[<f32>, <one>]
//  CHECK-NEXT:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 8>, D[<f32>, <one>]
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:     llvm.extractvalue
//       CHECK:     arith.addf
//       CHECK:     llvm.insertvalue
//       CHECK:     scf.yield

// Plain TF32 has no default wgmma row (mma.sync is faster once TF32 is
// rounded); a named one rounds each stage's tiles to TF32 in place (add half
// a TF32 ulp, clear 13 bits) and runs one wgmma per K step, here 128x256 in
// two warpgroups of m64n256.
// TF32-LABEL: gpu.func @accurate_k0_matmul
//       TF32:   scf.for
//       TF32:     arith.addi %{{.*}}, %cst{{.*}} : vector<4xi32>
//       TF32:     arith.andi
//       TF32:     vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       TF32:     nvvm.fence.proxy
//       TF32:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
//   TF32-NOT:     arith.subf
//       TF32:     scf.yield
func.func @accurate(%a: tensor<64x96xf32>, %b: tensor<128x96xf32>) -> tensor<64x128xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<64x96xf32>, tensor<128x96xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// wgmma reads both operands K-contiguous: a B given [K, N], or rows that are
// not 16-byte aligned, keep the mma.sync schedule.
// CHECK-LABEL: gpu.func @b_not_transposed_k0_matmul
//   CHECK-NOT:   nvvm.wgmma
//       CHECK:   nvgpu.mma.sync
func.func @b_not_transposed(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %r = uta.matmul %a, %b : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// -----

// CHECK-LABEL: gpu.func @unaligned_k0_matmul
//   CHECK-NOT:   nvvm.wgmma
//       CHECK:   nvgpu.mma.sync
func.func @unaligned(%a: tensor<64x33xf32>, %b: tensor<64x33xf32>) -> tensor<64x64xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Result rows of 70 elements, not a multiple of 4: no vector of 4 fits a
// row's end, so the epilogue stores each element where its accumulator
// register is, without a staging tile.
// CHECK-LABEL: gpu.func @odd_rows_k0_matmul
//   CHECK-NOT:   xf32, #gpu.address_space<workgroup>>
//       CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
//   CHECK-NOT:   vector.store
//       CHECK:   memref.store %{{.*}}, %arg2[
func.func @odd_rows(%a: tensor<100x192xf16>, %b: tensor<70x192xf16>) -> tensor<100x70xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<100x192xf16>, tensor<70x192xf16>) -> tensor<100x70xf16>
  return %r : tensor<100x70xf16>
}
