func.func @sandwich_cl37(%rotor: tensor<16x1x1xf32>, %x: tensor<16x19x67xf32>) -> tensor<16x19x67xf32> {
  %r = clifford.sandwich <3, 0, 1> %rotor, %x : (tensor<16x1x1xf32>, tensor<16x19x67xf32>) -> tensor<16x19x67xf32>
  return %r : tensor<16x19x67xf32>
}
