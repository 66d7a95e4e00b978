// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=wgmma128x256x32f32
// gpu-check-tolerance: 2e-3
// wgmma schedule (sm_90a) in plain TF32: tails in M, N and K, the
// two-warpgroup tile.
func.func @wgmma_tf32_tails(%a: tensor<520x260xf32>, %b: tensor<700x260xf32>) -> tensor<520x700xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<520x260xf32>, tensor<700x260xf32>) -> tensor<520x700xf32>
  return %r : tensor<520x700xf32>
}
