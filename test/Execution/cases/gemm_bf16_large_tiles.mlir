// GEMM engine: the large bf16 tile (128x128x32) with B stored [K, N]
// (ldmatrix.trans), K = 80 (a partial K tile), tails in M and N.
func.func @gemm_bf16_large_tiles(%a: tensor<1410x80xbf16>, %b: tensor<80x1544xbf16>) -> tensor<1410x1544xbf16> {
  %r = uta.matmul %a, %b : (tensor<1410x80xbf16>, tensor<80x1544xbf16>) -> tensor<1410x1544xbf16>
  return %r : tensor<1410x1544xbf16>
}
