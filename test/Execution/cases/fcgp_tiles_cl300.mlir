// FCGP with 2 output tiles and 7 row tiles (both partial) and input
// features in 5 chunks and a tail: the gates fused into fc_product are
// recomputed by each output tile's blocks.
func.func @fcgp_tiles_cl300(%x: tensor<8x100x45xf32>, %y: tensor<8x100x45xf32>, %w: tensor<20x45x150xf32>) -> tensor<8x100x150xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x45xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x45xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x100x45xf32>, tensor<8x100x45xf32>, tensor<20x45x150xf32>) -> tensor<8x100x150xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x100x150xf32>
  return %n : tensor<8x100x150xf32>
}
