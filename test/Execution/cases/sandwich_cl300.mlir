func.func @sandwich_cl300(%rotor: tensor<8x1x1xf32>, %x: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %r = clifford.sandwich <3, 0, 0> %rotor, %x : (tensor<8x1x1xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  return %r : tensor<8x19x67xf32>
}
