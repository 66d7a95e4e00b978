// Small Clifford graphs, so that the reference runs them too.
func.func @small(%x: tensor<16x3x5xf32>, %y: tensor<16x3x5xf32>, %w: tensor<5x6xf32>) -> tensor<16x3x5xf32> {
  %p = clifford.geometric_product <3, 0, 1> %x, %y : (tensor<16x3x5xf32>, tensor<16x3x5xf32>) -> tensor<16x3x5xf32>
  %g = clifford.grade_project <3, 0, 1> %p grades [0, 2] : tensor<16x3x5xf32>
  %s = clifford.sandwich <3, 0, 1> %g, %x : (tensor<16x3x5xf32>, tensor<16x3x5xf32>) -> tensor<16x3x5xf32>
  %n = clifford.grade_rms_norm <3, 0, 1> %s : tensor<16x3x5xf32>
  return %n : tensor<16x3x5xf32>
}
