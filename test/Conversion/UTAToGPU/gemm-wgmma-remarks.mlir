// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -verify-diagnostics -o /dev/null
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=TF32

// On sm_90a the GEMM engine's remarks name the wgmma schedule: warpgroups,
// stages and shared memory (3xTF32 adds one stage's remainder tiles), and
// the small tiles where the large ones would leave SMs idle. 3xTF32 takes
// the warp-specialised TMA schedule where its tile fills the GPU (the
// remainders of every stage, the stages' mbarriers), and so does plain TF32
// with its 128x256 tile (no remainders); where that tile would leave SMs
// idle, plain TF32 stays on mma.sync.

// TF32: remark: GEMM 4096x4096x4096 f32: wgmma, warp-specialised, tf32, tile tma128x256x32f32 (128x256x32, a producer warpgroup and 2 consumers of 64x256, 4 stages, 196768 B shared), A and B by TMA, A rounded in registers, 512 blocks
// TF32: remark: GEMM 512x3072x768 f32: mma.sync, tf32, tile mma64x64x16
func.func @large_f32(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  // expected-remark@+1 {{GEMM 4096x4096x4096 f32: wgmma, warp-specialised, 3xTF32 (f32 accuracy), tile tma128x128x32x3 (128x128x32, a producer warpgroup and 2 consumers of 64x128, 4 stages, 196640 B shared), A and B by TMA, 1024 blocks}}
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

func.func @large_bf16(%a: tensor<8192x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  // expected-remark@+1 {{GEMM 8192x8192x8192 bf16: wgmma, exact products, tile wgmma128x256x64 (128x256x64, 2 warpgroups of 64x256, 4 stages, 196608 B shared), A and B cp.async 16 B, 2048 blocks}}
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %0 : tensor<8192x8192xbf16>
}

// -----

func.func @linear_f32(%x: tensor<512x768xf32>, %w: tensor<3072x768xf32>) -> tensor<512x3072xf32> {
  // expected-remark@+1 {{GEMM 512x3072x768 f32: wgmma, 3xTF32 (f32 accuracy), tile wgmma128x64x32f32 (128x64x32, 2 warpgroups of 64x64, 3 stages, 98304 B shared), A and B cp.async 16 B, 192 blocks}}
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<512x768xf32>, tensor<3072x768xf32>) -> tensor<512x3072xf32>
  return %0 : tensor<512x3072xf32>
}

// -----

func.func @small_f16(%a: tensor<100x64xf16>, %b: tensor<72x64xf16>) -> tensor<100x72xf16> {
  // expected-remark@+1 {{GEMM 100x72x64 f16: wgmma, exact products, tile wgmma64x128x64 (64x128x64, 1 warpgroup of 64x128, 4 stages, 98304 B shared), A and B cp.async 16 B, 2 blocks}}
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<100x64xf16>, tensor<72x64xf16>) -> tensor<100x72xf16>
  return %0 : tensor<100x72xf16>
}
