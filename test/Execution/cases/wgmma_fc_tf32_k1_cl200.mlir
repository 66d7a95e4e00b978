// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 1e-2
// fc_product on wgmma (sm_90a) in plain TF32 with one input feature (rows
// of 4 bytes: copied by element, one K step per slot). With K = 1 nothing
// averages the TF32 rounding of a few products: the worst element is off
// by about 5e-3 of the RMS (3e-4 in norm), hence the tolerance.
func.func @wgmma_fc_tf32_k1_cl200(%x: tensor<4x130x1xf32>, %y: tensor<4x130x1xf32>, %w: tensor<10x1x24xf32>) -> tensor<4x130x24xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x130x1xf32>, tensor<4x130x1xf32>, tensor<10x1x24xf32>) -> tensor<4x130x24xf32>
  return %r : tensor<4x130x24xf32>
}
