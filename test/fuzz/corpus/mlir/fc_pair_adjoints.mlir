func.func @f(%t: tensor<14x3x5xf32>, %x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>) -> (tensor<4x3x5xf32>, tensor<4x3x5xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> (tensor<4x3x5xf32>, tensor<4x3x5xf32>)
  return %dx, %dy : tensor<4x3x5xf32>, tensor<4x3x5xf32>
}
