// gpu-check: --sm=90a
// wgmma schedule (sm_90a): M, N not multiples of 8, K = 24 (a partial K
// tile), one warpgroup.
func.func @wgmma_f16_tails(%a: tensor<100x24xf16>, %b: tensor<70x24xf16>) -> tensor<100x70xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<100x24xf16>, tensor<70x24xf16>) -> tensor<100x70xf16>
  return %r : tensor<100x70xf16>
}
