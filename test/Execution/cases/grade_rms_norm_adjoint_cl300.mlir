// The adjoint of grade_rms_norm in Cl(3,0), epsilon 1e-3: 300 features, two
// rounds of 256 threads, the second partial.
func.func @grade_rms_norm_adjoint_cl300(%g: tensor<8x19x300xf32>, %x: tensor<8x19x300xf32>) -> tensor<8x19x300xf32> {
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x {epsilon = 1.0e-03 : f32} : tensor<8x19x300xf32>
  return %dx : tensor<8x19x300xf32>
}
