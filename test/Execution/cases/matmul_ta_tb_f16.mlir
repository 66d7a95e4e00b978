// Both operands stored transposed (A [K, M], B [N, K]), f16 with 16-byte
// rows: A's tiles by cp.async, its fragments by ldmatrix.trans.
func.func @matmul_ta_tb_f16(%a: tensor<2x264x136xf16>, %b: tensor<2x72x264xf16>) -> tensor<2x136x72xf16> {
  %r = uta.matmul %a, %b {transpose_a = true, transpose_b = true} : (tensor<2x264x136xf16>, tensor<2x72x264xf16>) -> tensor<2x136x72xf16>
  return %r : tensor<2x136x72xf16>
}
