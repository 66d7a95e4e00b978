// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=fcwgmma128x256x16
// gpu-check-tolerance: 2e-3
// fc_product on wgmma (sm_90a) in plain TF32 on the 128x256 tile (K tiles
// of 16, the 64-byte swizzle), whose formed tiles are
// double-buffered: tails in the batch (130), Fin (72: four K tiles and 8)
// and Fout (200), a degenerate algebra.
func.func @wgmma_fc_tf32_cl301(%x: tensor<16x130x72xf32>, %y: tensor<16x130x72xf32>, %w: tensor<34x72x200xf32>) -> tensor<16x130x200xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x130x72xf32>, tensor<16x130x72xf32>, tensor<34x72x200xf32>) -> tensor<16x130x200xf32>
  return %r : tensor<16x130x200xf32>
}
