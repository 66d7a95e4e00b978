// The adjoint of scalar_gate in Cl(3,0), blades first.
func.func @scalar_gate_adjoint_cl300(%g: tensor<8x19x67xf32>, %x: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x19x67xf32>
  return %dx : tensor<8x19x67xf32>
}
