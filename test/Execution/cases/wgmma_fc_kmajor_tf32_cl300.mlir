// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=fcwgmma128x256x16
// gpu-check-tolerance: 2e-3
// fc_product on wgmma in plain TF32 with K-major weights read where they
// are staged, on the three-stage row (copies one step ahead): tails in the
// batch (130), Fin (72) and Fout (200). uta-tensor-core-layouts makes the
// weights K-major (a transpose kernel first).
func.func @wgmma_fc_kmajor_tf32_cl300(%x: tensor<8x130x72xf32>, %y: tensor<8x130x72xf32>, %w: tensor<20x72x200xf32>) -> tensor<8x130x200xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x130x72xf32>, tensor<8x130x72xf32>, tensor<20x72x200xf32>) -> tensor<8x130x200xf32>
  return %r : tensor<8x130x200xf32>
}
