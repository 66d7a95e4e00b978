// GEMM engine: the smallest matmul (one element, K = 1).
func.func @simt_gemm_1x1x1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %r = uta.matmul %a, %b : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
