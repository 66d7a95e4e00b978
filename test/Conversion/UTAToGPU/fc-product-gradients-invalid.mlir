// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true" -verify-diagnostics

// fc_product's gradients refuse a #uta.gemm_plan they cannot follow: they
// run on the mma.sync schedule, from the matmul table (the adjoint) or
// fc_product's (the weight gradient).

func.func @adjoint_wgmma_plan(%g: tensor<4x64x48xf32>, %y: tensor<4x64x32xf32>, %w: tensor<10x32x48xf32>) -> tensor<4x64x32xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan: no row of the engine's table has this schedule, tile, warps and stages}}
  %r = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w {uta.gemm_plan = #uta.gemm_plan<schedule = "wgmma", tile = [128, 256, 32], warps = [2, 1], stages = 4, precision = "3xtf32">} : (tensor<4x64x48xf32>, tensor<4x64x32xf32>, tensor<10x32x48xf32>) -> tensor<4x64x32xf32>
  return %r : tensor<4x64x32xf32>
}

// -----

func.func @weight_gradient_no_such_row(%g: tensor<4x64x48xf32>, %x: tensor<4x64x32xf32>) -> tensor<10x32x48xf32> {
  // expected-error@+1 {{the GEMM engine cannot follow its uta.gemm_plan:}}
  %r = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync", tile = [96, 96, 32], warps = [2, 2], stages = 3, precision = "3xtf32">} : (tensor<4x64x48xf32>, tensor<4x64x32xf32>, tensor<4x64x32xf32>) -> tensor<10x32x48xf32>
  return %r : tensor<10x32x48xf32>
}
