// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true" -verify-diagnostics
// RUN: not uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80" 2>&1 >/dev/null | FileCheck %s --check-prefix=AMPERE

// A #uta.gemm_plan the engine cannot follow is refused at its op, with why.

func.func @no_such_row(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: no row of the engine's table has this schedule, tile, warps and stages}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [96, 96, 32], warps = [2, 2], stages = 3, precision = "tf32">} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @precision_of_other_operands(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: f32 operands on the mma_sync schedule take precision tf32 or 3xtf32}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "half">} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @row_for_other_operands(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: its row wgmma128x256x64 is for other operands or another precision}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma", tile = [128, 256, 64], warps = [2, 1], stages = 4, precision = "tf32">} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// wgmma reads B K-contiguous.
func.func @schedule_does_not_apply(%a: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: wgmma reads B K-contiguous (transpose_b)}}
  %0 = uta.matmul %a, %a {uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma", tile = [128, 256, 64], warps = [2, 1], stages = 4, precision = "half">} : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %0 : tensor<256x256xbf16>
}

// -----

// A matmul row on fc_product.
func.func @fc_product_matmul_row(%x: tensor<4x256x64xf32>, %y: tensor<4x256x64xf32>, %w: tensor<10x256x64xf32>) -> tensor<4x256x256xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: no row of the engine's table has this schedule, tile, warps and stages}}
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32">} : (tensor<4x256x64xf32>, tensor<4x256x64xf32>, tensor<10x256x64xf32>) -> tensor<4x256x256xf32>
  return %0 : tensor<4x256x256xf32>
}

// -----

// A gate is read on the warp-specialised schedule alone.
func.func @gated_fc_product(%x: tensor<4x256x64xf32>, %y: tensor<4x256x64xf32>, %w: tensor<10x256x64xf32>, %g: tensor<256x64xf32>) -> tensor<4x256x256xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: only the wgmma_tma schedule reads a gate}}
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w gate %g {transpose_weights = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 64, 16], warps = [2, 2], stages = 3, precision = "tf32">} : (tensor<4x256x64xf32>, tensor<4x256x64xf32>, tensor<10x256x64xf32>, tensor<256x64xf32>) -> tensor<4x256x256xf32>
  return %0 : tensor<4x256x256xf32>
}

// Where wgmma is not, a row of its schedule is refused for that.
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: no row of the engine's table
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: f32 operands on the mma_sync schedule take precision tf32 or 3xtf32
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: its row wgmma128x256x64 is for other operands or another precision
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: wgmma needs sm_90a
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: no row of the engine's table
// AMPERE: error: the GEMM engine cannot follow its uta.gemm_plan: only the wgmma_tma schedule reads a gate
