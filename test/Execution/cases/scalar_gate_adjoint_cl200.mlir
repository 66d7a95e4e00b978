// The adjoint of scalar_gate in Cl(2,0), blades first.
func.func @scalar_gate_adjoint_cl200(%g: tensor<4x67x31xf32>, %x: tensor<4x67x31xf32>) -> tensor<4x67x31xf32> {
  %dx = clifford.scalar_gate_adjoint <2, 0, 0> %g, %x : tensor<4x67x31xf32>
  return %dx : tensor<4x67x31xf32>
}
