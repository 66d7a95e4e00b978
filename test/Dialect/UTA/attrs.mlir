// RUN: uta-opt %s | uta-opt | FileCheck %s

// #uta.tensor_map round-trips; a swizzle of 0 (the default) is not printed.
// CHECK-LABEL: func.func @kernel_abi
//  CHECK-SAME:   uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0, box = [1, 128, 16]>, #uta.tensor_map<argument = 6, source = 1, box = [256]>, #uta.tensor_map<argument = 7, source = 2, box = [1, 256, 16], swizzle = 64>]
func.func @kernel_abi() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0, box = [1, 128, 16]>, #uta.tensor_map<argument = 6, source = 1, box = [256], swizzle = 0>, #uta.tensor_map<argument = 7, source = 2, box = [1, 256, 16], swizzle = 64>]} {
  return
}

// #uta.gemm_plan round-trips on a matmul; b_stages 0 (the default) is not
// printed.
// CHECK-LABEL: func.func @gemm_plan
//       CHECK:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32">
//       CHECK:   uta.matmul {{.*}}uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "half">
func.func @gemm_plan(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>, %h: tensor<64x32xbf16>) -> (tensor<64x64xf32>, tensor<64x64xbf16>) {
  %0 = uta.matmul %a, %b {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 0>} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  %1 = uta.matmul %h, %h {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "half">} : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x64xbf16>
  return %0, %1 : tensor<64x64xf32>, tensor<64x64xbf16>
}

// On fc_product, with its weights' own stages.
// CHECK-LABEL: func.func @fc_product_plan
//       CHECK:   clifford.fc_product {{.*}}#uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 3>
func.func @fc_product_plan(%x: tensor<4x64x32xf32>, %y: tensor<4x64x32xf32>, %w: tensor<10x64x32xf32>) -> tensor<4x64x64xf32> {
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true, uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma_tma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "tf32", b_stages = 3>} : (tensor<4x64x32xf32>, tensor<4x64x32xf32>, tensor<10x64x32xf32>) -> tensor<4x64x64xf32>
  return %0 : tensor<4x64x64xf32>
}
