func.func @geometric_product_cl300(%x: tensor<8x19x67xf32>, %y: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %r = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  return %r : tensor<8x19x67xf32>
}
