// RUN: uta-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{a tensor map's box extents are 1 to 256, not 0}}
func.func @zero_extent() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [0, 16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's box extents are 1 to 256, not 257}}
func.func @too_long() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [257]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's box has 1 to 5 dimensions, not 6}}
func.func @too_many_dimensions() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [1, 1, 1, 1, 1, 16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map cannot describe its own argument 2}}
func.func @itself() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 2, source = 2, box = [16]>]} {
  return
}

// -----

// expected-error@+1 {{a tensor map's swizzle is 0, 32, 64 or 128 bytes, not 48}}
func.func @bad_swizzle() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 1, source = 0, box = [16], swizzle = 48>]} {
  return
}

// -----

func.func @unknown_schedule(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{a GEMM plan's schedule is simt, mma_sync, wgmma or wgmma_tma, not 'tma'}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "tma", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "tf32">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @unknown_precision(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{a GEMM plan's precision is f32, tf32, 3xtf32 or half, not 'fp8'}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "fp8">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @two_extent_tile(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{a GEMM plan's tile is three positive extents, M x N x K}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64], warps = [2, 2], stages = 3, precision = "tf32">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @warps_not_dividing(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{a GEMM plan's warps must divide its tile}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [3, 2], stages = 3, precision = "tf32">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @no_stage(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{a GEMM plan has at least one stage and no negative count of B stages}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 0, precision = "tf32">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @not_on_the_engine(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error@+1 {{only uta.matmul, clifford.fc_product and its gradients run on the GEMM engine, so only they (and the launches of their kernels) take a 'uta.gemm_plan'}}
  %0 = uta.add %a, %a {uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [64, 64, 32], warps = [2, 2], stages = 3, precision = "tf32">} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

func.func @not_a_plan(%a: tensor<64x32xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'uta.gemm_plan' must be a #uta.gemm_plan}}
  %0 = uta.matmul %a, %a {transpose_b = true, uta.gemm_plan = "mma128x128x32"} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
