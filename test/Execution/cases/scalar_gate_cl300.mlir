func.func @scalar_gate_cl300(%x: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %r = clifford.scalar_gate <3, 0, 0> %x : tensor<8x19x67xf32>
  return %r : tensor<8x19x67xf32>
}
