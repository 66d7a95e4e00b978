// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores: worst elements
// near 2.4e-3 among this many outputs, rel_l2 4.7e-4.)
// fc_product on sm_90a (the warp-specialised schedule) in plain TF32 with
// x and y tiles copied by TMA (one box of a tensor map per tile, zeros past
// the tensor): tails in the batch (200: the last row tile holds 72 rows)
// and in Fout (300: the third column tile of 128 holds 44 columns); Fin 64
// (two K tiles).
func.func @wgmma_fc_tma_tf32_cl300(%x: tensor<8x200x64xf32>, %y: tensor<8x200x64xf32>, %w: tensor<20x64x300xf32>) -> tensor<8x200x300xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x200x64xf32>, tensor<8x200x64xf32>, tensor<20x64x300xf32>) -> tensor<8x200x300xf32>
  return %r : tensor<8x200x300xf32>
}
