// GEMM engine: several tiles along M and N with tails, K = 31.
func.func @simt_gemm_129x257x31(%a: tensor<129x31xf32>, %b: tensor<31x257xf32>) -> tensor<129x257xf32> {
  %r = uta.matmul %a, %b : (tensor<129x31xf32>, tensor<31x257xf32>) -> tensor<129x257xf32>
  return %r : tensor<129x257xf32>
}
