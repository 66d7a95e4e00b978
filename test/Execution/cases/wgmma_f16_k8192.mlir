// gpu-check: --sm=90a
// gpu-check-tolerance: 1e-2
// wgmma schedule (sm_90a): a long K (128 pipeline steps), tails in M and N.
func.func @wgmma_f16_k8192(%a: tensor<72x8192xf16>, %b: tensor<136x8192xf16>) -> tensor<72x136xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<72x8192xf16>, tensor<136x8192xf16>) -> tensor<72x136xf16>
  %c = uta.cast %r : tensor<72x136xf16> -> tensor<72x136xf32>
  return %c : tensor<72x136xf32>
}
