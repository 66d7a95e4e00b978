// GEMM engine: batched, tiles dividing every extent (no guards).
func.func @gemm_f16_batched_exact(%a: tensor<4x64x128xf16>, %b: tensor<4x96x128xf16>) -> tensor<4x64x96xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<4x64x128xf16>, tensor<4x96x128xf16>) -> tensor<4x64x96xf16>
  return %r : tensor<4x64x96xf16>
}
