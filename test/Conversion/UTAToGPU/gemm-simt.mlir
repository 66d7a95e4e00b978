// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,STATIC
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 tensor-cores=false" -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,DYNAMIC

// The tiled SIMT schedule of the GEMM engine: the only one without CUDA
// tensor cores (sm=0: SPIR-V, MSL) or with tensor-cores=false. A block of
// 256 threads owns a 64x64 tile (here 2 blocks); per K step of 16 it stages
// A and B in workgroup memory as f32 (f16 widened on read, zeros past M, N
// or K), passes a barrier, runs 16 steps of a 4x4 register tile of FMAs,
// and passes a second barrier before the next step overwrites the tiles.
// The tiles are workgroup attributions, or on CUDA views of the launch's
// dynamic shared memory (8 KiB here).
// CHECK-LABEL: func.func @tb
//       CHECK:   gpu.launch_func @kernels::@tb_k0_matmul blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
// DYNAMIC-SAME:    dynamic_shared_memory_size %c8192_i32
// CHECK-LABEL: gpu.func @tb_k0_matmul
// STATIC-SAME:     workgroup(%[[A:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>)
//     DYNAMIC:   %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
//     DYNAMIC:   %[[A:.*]] = memref.view %[[SHARED]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
//     DYNAMIC:   %[[B:.*]] = memref.view %[[SHARED]][%c4096][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
//       CHECK:     scf.if %{{.*}} -> (f32) {
//       CHECK:       memref.load %arg0
//       CHECK:       arith.extf %{{.*}} : f16 to f32
//       CHECK:     } else {
//       CHECK:       scf.yield %cst : f32
//       CHECK:     memref.store %{{.*}}, %[[A]][
//       CHECK:     memref.load %arg1
//       CHECK:     memref.store %{{.*}}, %[[B]][
//       CHECK:     gpu.barrier
//       CHECK:     memref.load %[[A]]
//       CHECK:     memref.load %[[B]]
//       CHECK:     math.fma
//       CHECK:     gpu.barrier
//  CHECK-NEXT:     scf.yield
//       CHECK:   scf.if
//       CHECK:     arith.truncf %{{.*}} : f32 to f16
//       CHECK:     memref.store %{{.*}}, %arg2[
//   CHECK-NOT:   nvgpu
func.func @tb(%a: tensor<70x40xf16>, %b: tensor<50x40xf16>) -> tensor<70x50xf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<70x40xf16>, tensor<50x40xf16>) -> tensor<70x50xf16>
  return %0 : tensor<70x50xf16>
}

// -----

// Enough tiles for the large row of the table: 128x128 tiles, K steps of
// 8, 8x8 outputs per thread; extents the tiles divide need no guards.
// CHECK-LABEL: func.func @large
//       CHECK:   gpu.launch_func @kernels::@large_k0_matmul blocks in (%c144, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-LABEL: gpu.func @large_k0_matmul
// STATIC-SAME:     workgroup(%{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>>)
//     DYNAMIC:   memref.view %{{.*}}[%c4096][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:   scf.if
//       CHECK:   scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
//   CHECK-NOT:   scf.if
//       CHECK:   gpu.return
func.func @large(%a: tensor<1536x32xf32>, %b: tensor<32x1536xf32>) -> tensor<1536x1536xf32> {
  %0 = uta.matmul %a, %b : (tensor<1536x32xf32>, tensor<32x1536xf32>) -> tensor<1536x1536xf32>
  return %0 : tensor<1536x1536xf32>
}
