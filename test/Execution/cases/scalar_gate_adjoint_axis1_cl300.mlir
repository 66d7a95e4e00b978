// The adjoint of scalar_gate with the blades in the middle axis, fed by
// producers recomputed in its kernel: a pointwise uta op for the cotangent
// and a clifford op along the same blade axis for the input.
func.func @scalar_gate_adjoint_axis1_cl300(%s: tensor<67x8x5xf32>, %y: tensor<67x8x5xf32>) -> tensor<67x8x5xf32> {
  %g = uta.tanh %s : tensor<67x8x5xf32>
  %x = clifford.reverse <3, 0, 0> %y {blade_axis = 1} : tensor<67x8x5xf32>
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x {blade_axis = 1} : tensor<67x8x5xf32>
  return %dx : tensor<67x8x5xf32>
}
