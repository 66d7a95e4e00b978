func.func @scalar_gate_cl37(%x: tensor<16x19x67xf32>) -> tensor<16x19x67xf32> {
  %r = clifford.scalar_gate <3, 0, 1> %x : tensor<16x19x67xf32>
  return %r : tensor<16x19x67xf32>
}
