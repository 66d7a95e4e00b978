// The SGP layer of examples/sgp_cl2.mlir at a size for finite differences.
func.func @sgp_cl2(%x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>,
                   %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x3x5xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x3x5xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x3x5xf32>
  return %n : tensor<4x3x5xf32>
}
