// Vector operands: the grade analysis leaves fc_product the terms of two
// vectors (scalar and bivector slots only), and the projections fuse into
// its staging.
func.func @fc_product_vectors_cl300(%x: tensor<8x29x11xf32>, %y: tensor<8x29x11xf32>, %w: tensor<20x11x19xf32>) -> tensor<8x29x19xf32> {
  %vx = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x29x11xf32>
  %vy = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x29x11xf32>
  %r = clifford.fc_product <3, 0, 0> %vx, %vy, %w : (tensor<8x29x11xf32>, tensor<8x29x11xf32>, tensor<20x11x19xf32>) -> tensor<8x29x19xf32>
  return %r : tensor<8x29x19xf32>
}
