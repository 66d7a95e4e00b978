// RUN: uta-opt %s -uta-plan-gemms="sm=90 arch-specific=true allow-tf32=true" | FileCheck %s --check-prefix=HOPPER
// RUN: uta-opt %s -uta-plan-gemms="sm=80" | FileCheck %s --check-prefix=AMPERE
// RUN: uta-opt %s -uta-plan-gemms | FileCheck %s --check-prefix=SIMT
// RUN: uta-opt %s -uta-plan-gemms="sm=90 arch-specific=true gemm-config=tma128x128x64s6" | FileCheck %s --check-prefix=NAMED
// RUN: not uta-opt %s -uta-plan-gemms="sm=90 gemm-config=nope" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// uta-plan-gemms attaches the plan each op on the GEMM engine will follow:
// the heuristic's row for the target (docs/gemm.md), or a named row where
// it applies. A plan an op already has stays. An fc_product on the SIMT
// cores (no CUDA tensor cores) gets none.

// HOPPER-LABEL: func.func @matmuls
//       HOPPER:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32">
//       HOPPER:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma", tile = [128, 256, 64], warps = [2, 1], stages = 4, precision = "half">
//       HOPPER:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma", tile = [64, 128, 64], warps = [1, 1], stages = 4, precision = "half">
// AMPERE-LABEL: func.func @matmuls
//       AMPERE:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 64, 32], warps = [2, 2], stages = 2, precision = "3xtf32">
//       AMPERE:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 128, 64], warps = [2, 2], stages = 3, precision = "half">
//   SIMT-LABEL: func.func @matmuls
//         SIMT:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "simt", tile = [128, 128, 8], warps = [16, 16], stages = 1, precision = "f32">
//  NAMED-LABEL: func.func @matmuls
//        NAMED:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 128, 32], warps = [2, 1], stages = 4, precision = "3xtf32">
//        NAMED:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 128, 64], warps = [2, 1], stages = 6, precision = "half">
func.func @matmuls(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>, %h: tensor<4096x4096xbf16>, %g: tensor<4096x4096xbf16>, %s: tensor<96x72xbf16>) -> (tensor<4096x4096xf32>, tensor<4096x4096xbf16>, tensor<96x96xbf16>) {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %1 = uta.matmul %h, %g {transpose_b = true} : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  %2 = uta.matmul %s, %s {transpose_b = true} : (tensor<96x72xbf16>, tensor<96x72xbf16>) -> tensor<96x96xbf16>
  return %0, %1, %2 : tensor<4096x4096xf32>, tensor<4096x4096xbf16>, tensor<96x96xbf16>
}

// HOPPER-LABEL: func.func @kept
//       HOPPER:   uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "3xtf32">
func.func @kept(%a: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "3xtf32">} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// fc_product of Cl(2,0) with K-major weights: the warp-specialised row on
// sm_90a, its weights in b_stages of their own (128 columns: 256 would
// leave half the SMs without a block), mma.sync on sm_80, and no plan without CUDA
// tensor cores.
// HOPPER-LABEL: func.func @fc_product
//       HOPPER:   clifford.fc_product {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 128, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 2>
// AMPERE-LABEL: func.func @fc_product
//       AMPERE:   clifford.fc_product {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [128, 64, 16], warps = [2, 2], stages = 3, precision = "3xtf32">
//   SIMT-LABEL: func.func @fc_product
//    SIMT-NOT:   uta.gemm_plan
func.func @fc_product(%x: tensor<4x2048x64xf32>, %y: tensor<4x2048x64xf32>, %w: tensor<10x256x64xf32>) -> tensor<4x2048x256xf32> {
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x2048x64xf32>, tensor<4x2048x64xf32>, tensor<10x256x64xf32>) -> tensor<4x2048x256xf32>
  return %0 : tensor<4x2048x256xf32>
}

// UNKNOWN: error: gemm-config: no row of the GEMM table is named 'nope'
