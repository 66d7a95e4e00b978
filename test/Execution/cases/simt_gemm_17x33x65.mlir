// GEMM engine: M, N, K none a multiple of any tile (17 x 33, K = 65).
func.func @simt_gemm_17x33x65(%a: tensor<17x65xf32>, %b: tensor<65x33xf32>) -> tensor<17x33xf32> {
  %r = uta.matmul %a, %b : (tensor<17x65xf32>, tensor<65x33xf32>) -> tensor<17x33xf32>
  return %r : tensor<17x33xf32>
}
