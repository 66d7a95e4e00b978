// The adjoint of scalar_gate in the degenerate Cl(3,0,1), blades first.
func.func @scalar_gate_adjoint_cl301(%g: tensor<16x19x13xf32>, %x: tensor<16x19x13xf32>) -> tensor<16x19x13xf32> {
  %dx = clifford.scalar_gate_adjoint <3, 0, 1> %g, %x : tensor<16x19x13xf32>
  return %dx : tensor<16x19x13xf32>
}
