// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80 allow-tf32=true" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -verify-diagnostics -o /dev/null
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT

// A matmul whose A is stored [K, M] (transpose_a; a weight gradient x^T g)
// reads A as stored. mma.sync stages A's tiles [tileK][tileM] by cp.async
// where M's rows are 16-byte aligned, and transposes them on the way to
// the fragments: ldmatrix.trans for 16-bit elements, 32-bit shared loads
// for f32. The wgmma schedules read A K-contiguous only, so sm_90a keeps
// mma.sync and says so in the plan's remark. The SIMT schedule reads A's
// contiguous axis (M) with consecutive threads.

// CHECK-LABEL: gpu.func @grad_f16_k0_matmul
//       CHECK:   %[[A:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<256x128xf16> to memref<3x32x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
//       CHECK:     nvgpu.ldmatrix %[[A]][{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<3x32x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
//       CHECK:     nvgpu.mma.sync
// SIMT-LABEL: gpu.func @grad_f16_k0_matmul
//       SIMT:   memref.load %arg0[%{{.*}}, %{{.*}}] : memref<256x128xf16>
func.func @grad_f16(%a: tensor<256x128xf16>, %b: tensor<256x72xf16>) -> tensor<128x72xf16> {
  // expected-remark@+1 {{GEMM 128x72x256 f16: mma.sync, exact products, tile mma64x64x32 (64x64x32, 4 warps of 32x32, 3 stages, 24576 B shared), A [K][M] cp.async 16 B, B cp.async 16 B, 4 blocks}}
  %0 = uta.matmul %a, %b {transpose_a = true} : (tensor<256x128xf16>, tensor<256x72xf16>) -> tensor<128x72xf16>
  return %0 : tensor<128x72xf16>
}

// -----

// CHECK-LABEL: gpu.func @grad_tf32_k0_matmul
//       CHECK:   %[[A:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x16x64xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
//   CHECK-NOT:     nvgpu.ldmatrix %[[A]]
//       CHECK:     memref.load %[[A]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x16x64xf32, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
func.func @grad_tf32(%x: tensor<2x512x100xf32>, %g: tensor<2x512x72xf32>) -> tensor<2x100x72xf32> {
  // expected-remark@+1 {{GEMM 100x72x512 f32: mma.sync, tf32, tile mma64x64x16 (64x64x16, 4 warps of 32x32, 3 stages, 24576 B shared), A [K][M] cp.async 16 B, B cp.async 16 B, 8 blocks}}
  %0 = uta.matmul %x, %g {transpose_a = true} : (tensor<2x512x100xf32>, tensor<2x512x72xf32>) -> tensor<2x100x72xf32>
  return %0 : tensor<2x100x72xf32>
}
