// gpu-check: --sm=90a --uta-gemm-config=wgmma128x128x32x3s3
// wgmma schedule (sm_90a), 3xTF32: a long K (256 pipeline steps), the
// two-warpgroup tile, tails in M and N.
func.func @wgmma_f32_k8192(%a: tensor<300x8192xf32>, %b: tensor<520x8192xf32>) -> tensor<300x520xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<300x8192xf32>, tensor<520x8192xf32>) -> tensor<300x520xf32>
  return %r : tensor<300x520xf32>
}
