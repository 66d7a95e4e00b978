func.func @f(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>, %w: tensor<3x9xf32>) -> tensor<4x2x3xf32> {
  %0 = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<3x9xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}
