// gpu-check: --sm=90a
// The FCGP layer in 3xTF32 with its grade norm in fc_product's epilogue:
// 128-column tiles, three of them (Fout 260, the last partial), and a
// batch (200) that ends inside a row tile, whose rows past it take no
// part in the sums.
func.func @fcgp_norm_cl300(%x: tensor<8x200x64xf32>, %y: tensor<8x200x64xf32>, %w: tensor<20x64x260xf32>) -> tensor<8x200x260xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x200x64xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x200x64xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x200x64xf32>, tensor<8x200x64xf32>, tensor<20x64x260xf32>) -> tensor<8x200x260xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x200x260xf32>
  return %n : tensor<8x200x260xf32>
}
