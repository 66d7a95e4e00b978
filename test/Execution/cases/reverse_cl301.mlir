func.func @reverse_cl37(%x: tensor<16x19x67xf32>) -> tensor<16x19x67xf32> {
  %r = clifford.reverse <3, 0, 1> %x : tensor<16x19x67xf32>
  return %r : tensor<16x19x67xf32>
}
