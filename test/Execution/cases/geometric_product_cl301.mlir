func.func @geometric_product_cl37(%x: tensor<16x19x67xf32>, %y: tensor<16x19x67xf32>) -> tensor<16x19x67xf32> {
  %r = clifford.geometric_product <3, 0, 1> %x, %y : (tensor<16x19x67xf32>, tensor<16x19x67xf32>) -> tensor<16x19x67xf32>
  return %r : tensor<16x19x67xf32>
}
