func.func @weighted_product_cl200(%x: tensor<4x67x31xf32>, %y: tensor<4x67x31xf32>, %w: tensor<31x10xf32>) -> tensor<4x67x31xf32> {
  %r = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<31x10xf32>) -> tensor<4x67x31xf32>
  return %r : tensor<4x67x31xf32>
}
