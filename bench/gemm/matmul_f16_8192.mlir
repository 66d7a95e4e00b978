// B given [N, K] (transpose_b), as a linear layer stores its weights.
func.func @matmul_f16_8192(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  return %r : tensor<8192x8192xf16>
}
