func.func @left_contraction_cl200(%x: tensor<4x19x67xf32>, %y: tensor<4x19x67xf32>) -> tensor<4x19x67xf32> {
  %r = clifford.left_contraction <2, 0, 0> %x, %y : (tensor<4x19x67xf32>, tensor<4x19x67xf32>) -> tensor<4x19x67xf32>
  return %r : tensor<4x19x67xf32>
}
