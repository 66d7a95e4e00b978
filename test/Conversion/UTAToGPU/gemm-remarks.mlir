// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 remarks=true" -verify-diagnostics -o /dev/null
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=SIMT
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 allow-tf32=true remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=TF32

// With remarks, the GEMM engine reports its plan of each matmul: schedule,
// precision, tile and why (large tiles when they give every SM a block),
// how each operand is copied, and the grid.

// SIMT: remark: GEMM 4096x4096x4096 f32: tiled SIMT, f32, tile simt128x128x8 (128x128x8, 256 threads of 8x8 outputs), 1024 blocks
// TF32: remark: GEMM 4096x4096x4096 f32: mma.sync, tf32, tile mma128x128x32f32 (128x128x32, 4 warps of 64x64, 3 stages, 98304 B shared)
func.func @large(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  // expected-remark@+1 {{GEMM 4096x4096x4096 f32: mma.sync, 3xTF32 (f32 accuracy), tile mma128x64x32 (128x64x32, 4 warps of 64x32, 2 stages, 49152 B shared), A cp.async 16 B, B cp.async 16 B, 2048 blocks}}
  %0 = uta.matmul %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// SIMT: remark: GEMM 509x1027x17 bf16: tiled SIMT, exact products, tile simt64x64x16
func.func @small(%a: tensor<509x17xbf16>, %b: tensor<1027x17xbf16>) -> tensor<509x1027xbf16> {
  // expected-remark@+1 {{GEMM 509x1027x17 bf16: mma.sync, exact products, tile mma64x64x32 (64x64x32, 4 warps of 32x32, 3 stages, 24576 B shared), A copied by element, B copied by element, 136 blocks}}
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<509x17xbf16>, tensor<1027x17xbf16>) -> tensor<509x1027xbf16>
  return %0 : tensor<509x1027xbf16>
}
