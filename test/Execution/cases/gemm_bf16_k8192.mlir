// GEMM engine: a long K in bf16, B stored [K, N] (ldmatrix.trans).
func.func @gemm_bf16_k8192(%a: tensor<40x8192xbf16>, %b: tensor<8192x72xbf16>) -> tensor<40x72xbf16> {
  %r = uta.matmul %a, %b : (tensor<40x8192xbf16>, tensor<8192x72xbf16>) -> tensor<40x72xbf16>
  return %r : tensor<40x72xbf16>
}
