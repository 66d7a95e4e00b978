// A stored [K, M] in bf16 (CUDA only: SPIR-V has no bf16), B [K, N]: both
// tiles transposed on load.
func.func @matmul_ta_bf16(%a: tensor<200x96xbf16>, %b: tensor<200x40xbf16>) -> tensor<96x40xbf16> {
  %r = uta.matmul %a, %b {transpose_a = true} : (tensor<200x96xbf16>, tensor<200x40xbf16>) -> tensor<96x40xbf16>
  return %r : tensor<96x40xbf16>
}
