// gpu-check: --sm=90a --uta-gemm-config=fcwgmma128x128x32
// fc_product on the wgmma schedule that forms A in shared memory (named:
// the heuristic takes the warp-specialised one here), 3xTF32: tails in the
// batch (200), Fin (100) and Fout (72).
func.func @wgmma_fc_cl300(%x: tensor<8x200x100xf32>, %y: tensor<8x200x100xf32>, %w: tensor<20x100x72xf32>) -> tensor<8x200x72xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x200x100xf32>, tensor<8x200x100xf32>, tensor<20x100x72xf32>) -> tensor<8x200x72xf32>
  return %r : tensor<8x200x72xf32>
}
