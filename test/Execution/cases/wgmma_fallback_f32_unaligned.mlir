// gpu-check: --sm=90a
// sm_90a, but rows of 33 f32 are not 16-byte aligned and B is [K, N]:
// the mma.sync schedule takes it (element copies).
func.func @wgmma_fallback_f32_unaligned(%a: tensor<70x33xf32>, %b: tensor<33x50xf32>) -> tensor<70x50xf32> {
  %r = uta.matmul %a, %b : (tensor<70x33xf32>, tensor<33x50xf32>) -> tensor<70x50xf32>
  return %r : tensor<70x50xf32>
}
