func.func @sandwich_cl200(%rotor: tensor<4x1x1xf32>, %x: tensor<4x19x67xf32>) -> tensor<4x19x67xf32> {
  %r = clifford.sandwich <2, 0, 0> %rotor, %x : (tensor<4x1x1xf32>, tensor<4x19x67xf32>) -> tensor<4x19x67xf32>
  return %r : tensor<4x19x67xf32>
}
