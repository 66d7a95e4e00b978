// B given [N, K] (transpose_b), as a linear layer stores its weights.
func.func @matmul_bf16_8192(%a: tensor<8192x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %r : tensor<8192x8192xbf16>
}
