func.func @reverse_cl200(%x: tensor<4x19x67xf32>) -> tensor<4x19x67xf32> {
  %r = clifford.reverse <2, 0, 0> %x : tensor<4x19x67xf32>
  return %r : tensor<4x19x67xf32>
}
