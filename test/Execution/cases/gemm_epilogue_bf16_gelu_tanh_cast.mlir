// gpu-check-tolerance: 1e-2
// GEMM engine epilogue: gelu (tanh form) of x W + b, cast to f32, one kernel.
func.func @gemm_epilogue_bf16_gelu_tanh_cast(%x: tensor<70x48xbf16>, %w: tensor<48x136xbf16>, %b: tensor<136xbf16>) -> tensor<70x136xf32> {
  %0 = uta.matmul %x, %w : (tensor<70x48xbf16>, tensor<48x136xbf16>) -> tensor<70x136xbf16>
  %1 = uta.add %0, %b : (tensor<70x136xbf16>, tensor<136xbf16>) -> tensor<70x136xbf16>
  %2 = uta.gelu %1 {tanh_approximation = true} : tensor<70x136xbf16>
  %3 = uta.cast %2 : tensor<70x136xbf16> -> tensor<70x136xf32>
  return %3 : tensor<70x136xf32>
}
