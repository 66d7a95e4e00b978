// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// The FCGP layer in plain TF32 with its grade norm in fc_product's
// epilogue: three column tiles (Fout 520), so each row tile's groups are
// 3 blocks (grades 0 and 3) and 9 (grades 1 and 2) that exchange their
// rows' sums of squares; tails in the batch (300) and Fin (100).
func.func @fcgp_norm_tf32_cl300(%x: tensor<8x300x100xf32>, %y: tensor<8x300x100xf32>, %w: tensor<20x100x520xf32>) -> tensor<8x300x520xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x300x100xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x300x100xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x300x100xf32>, tensor<8x300x100xf32>, tensor<20x100x520xf32>) -> tensor<8x300x520xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x300x520xf32>
  return %n : tensor<8x300x520xf32>
}
