func.func @weighted_product_cl300(%x: tensor<8x67x31xf32>, %y: tensor<8x67x31xf32>, %w: tensor<31x20xf32>) -> tensor<8x67x31xf32> {
  %r = clifford.weighted_product <3, 0, 0> %x, %y, %w : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<31x20xf32>) -> tensor<8x67x31xf32>
  return %r : tensor<8x67x31xf32>
}
