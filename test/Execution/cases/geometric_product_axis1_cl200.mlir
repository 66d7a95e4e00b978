func.func @geometric_product_axis1_cl200(%x: tensor<19x4x67xf32>, %y: tensor<19x4x67xf32>) -> tensor<19x4x67xf32> {
  %r = clifford.geometric_product <2, 0, 0> %x, %y {blade_axis = 1} : (tensor<19x4x67xf32>, tensor<19x4x67xf32>) -> tensor<19x4x67xf32>
  return %r : tensor<19x4x67xf32>
}
