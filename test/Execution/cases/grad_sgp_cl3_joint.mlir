// gpu-check-grad: joint
// The joint forward and backward of the SGP layer in Cl(3,0) with respect to x, y and the
// weights, at sizes that fill no tile.
func.func @sgp_cl3_joint(%x: tensor<8x300x61xf32>, %y: tensor<8x300x61xf32>,
                   %w: tensor<61x20xf32>) -> tensor<8x300x61xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x300x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x300x61xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x300x61xf32>, tensor<8x300x61xf32>, tensor<61x20xf32>) -> tensor<8x300x61xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x300x61xf32>
  return %n : tensor<8x300x61xf32>
}
