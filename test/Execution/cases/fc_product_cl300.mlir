func.func @fc_product_cl300(%x: tensor<8x67x31xf32>, %y: tensor<8x67x31xf32>, %w: tensor<20x31x17xf32>) -> tensor<8x67x17xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<20x31x17xf32>) -> tensor<8x67x17xf32>
  return %r : tensor<8x67x17xf32>
}
