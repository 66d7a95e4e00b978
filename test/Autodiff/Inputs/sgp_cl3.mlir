// The SGP layer of examples/sgp_cl3.mlir at a size for finite differences.
func.func @sgp_cl3(%x: tensor<8x3x5xf32>, %y: tensor<8x3x5xf32>,
                   %w: tensor<5x20xf32>) -> tensor<8x3x5xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x5xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x5xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<5x20xf32>) -> tensor<8x3x5xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x3x5xf32>
  return %n : tensor<8x3x5xf32>
}
