// GEMM engine epilogue: silu(x W^T + r) in f16, one kernel.
func.func @gemm_epilogue_f16_silu_residual(%x: tensor<96x40xf16>, %w: tensor<72x40xf16>, %r: tensor<96x72xf16>) -> tensor<96x72xf16> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<96x40xf16>, tensor<72x40xf16>) -> tensor<96x72xf16>
  %1 = uta.add %0, %r : (tensor<96x72xf16>, tensor<96x72xf16>) -> tensor<96x72xf16>
  %2 = uta.silu %1 : tensor<96x72xf16>
  return %2 : tensor<96x72xf16>
}
