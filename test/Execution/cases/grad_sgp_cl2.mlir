// gpu-check-grad: vjp
// The gradient of the SGP layer in Cl(2,0), at sizes that fill no tile.
func.func @sgp_cl2(%x: tensor<4x257x33xf32>, %y: tensor<4x257x33xf32>,
                   %w: tensor<33x10xf32>) -> tensor<4x257x33xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x257x33xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x257x33xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x257x33xf32>, tensor<4x257x33xf32>, tensor<33x10xf32>) -> tensor<4x257x33xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x257x33xf32>
  return %n : tensor<4x257x33xf32>
}
