// gpu-check: --sm=90a
// wgmma schedule (sm_90a): batch dimensions broadcast NumPy-style ([2, 1]
// with [3]).
func.func @wgmma_f16_batched_broadcast(%a: tensor<2x1x37x56xf16>, %b: tensor<3x29x56xf16>) -> tensor<2x3x37x29xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<2x1x37x56xf16>, tensor<3x29x56xf16>) -> tensor<2x3x37x29xf16>
  return %r : tensor<2x3x37x29xf16>
}
