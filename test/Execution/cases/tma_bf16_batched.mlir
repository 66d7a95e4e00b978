// gpu-check: --sm=90a --uta-gemm-config=tma256x128x64
// The TMA schedule with four consumer warpgroups, batched: A [2, 3, M, K]
// against B [3, N, K] (rank-4 and rank-3 tensor maps, B broadcast over
// the first batch dimension), tails in M, N and K.
func.func @tma_bf16_batched(%a: tensor<2x3x300x136xbf16>, %b: tensor<3x150x136xbf16>) -> tensor<2x3x300x150xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<2x3x300x136xbf16>, tensor<3x150x136xbf16>) -> tensor<2x3x300x150xbf16>
  return %r : tensor<2x3x300x150xbf16>
}
