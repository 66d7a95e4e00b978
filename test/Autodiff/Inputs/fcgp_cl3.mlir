// The FCGP layer of examples/fcgp_cl3.mlir at a size for finite differences:
// the gates, the fully connected geometric product and the norm.
func.func @fcgp_cl3(%x: tensor<8x3x4xf32>, %y: tensor<8x3x4xf32>,
                    %w: tensor<20x4x6xf32>) -> tensor<8x3x6xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x4xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x4xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x3x4xf32>, tensor<8x3x4xf32>, tensor<20x4x6xf32>) -> tensor<8x3x6xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x3x6xf32>
  return %n : tensor<8x3x6xf32>
}
