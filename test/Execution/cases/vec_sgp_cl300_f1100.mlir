// SGP in Cl(3,0) with F = 1100: 275 chunks of 4 features over 256 threads,
// so a second round in which only 19 threads have a chunk (held in
// registers, 64 values per thread).
func.func @vec_sgp_cl300_f1100(%x: tensor<8x5x1100xf32>, %y: tensor<8x5x1100xf32>,
                               %w: tensor<1100x20xf32>) -> tensor<8x5x1100xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x5x1100xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x5x1100xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x5x1100xf32>, tensor<8x5x1100xf32>, tensor<1100x20xf32>) -> tensor<8x5x1100xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x5x1100xf32>
  return %n : tensor<8x5x1100xf32>
}
