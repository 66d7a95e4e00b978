// gpu-check: --sm=90a
// gpu-check-tolerance: 1e-2
// wgmma schedule (sm_90a) with the fused epilogue: gelu of x W^T + b, cast
// to f32, one kernel.
func.func @wgmma_epilogue_bf16_bias_gelu(%x: tensor<200x64xbf16>, %w: tensor<136x64xbf16>, %b: tensor<136xbf16>) -> tensor<200x136xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<200x64xbf16>, tensor<136x64xbf16>) -> tensor<200x136xbf16>
  %1 = uta.add %0, %b : (tensor<200x136xbf16>, tensor<136xbf16>) -> tensor<200x136xbf16>
  %2 = uta.gelu %1 : tensor<200x136xbf16>
  %3 = uta.cast %2 : tensor<200x136xbf16> -> tensor<200x136xf32>
  return %3 : tensor<200x136xf32>
}
