func.func @geometric_product_axis1_cl300(%x: tensor<19x8x67xf32>, %y: tensor<19x8x67xf32>) -> tensor<19x8x67xf32> {
  %r = clifford.geometric_product <3, 0, 0> %x, %y {blade_axis = 1} : (tensor<19x8x67xf32>, tensor<19x8x67xf32>) -> tensor<19x8x67xf32>
  return %r : tensor<19x8x67xf32>
}
