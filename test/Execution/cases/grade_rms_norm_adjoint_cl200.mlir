// The adjoint of grade_rms_norm in Cl(2,0): 31 features over a warp, the
// blades of g and x held between the passes.
func.func @grade_rms_norm_adjoint_cl200(%g: tensor<4x67x31xf32>, %x: tensor<4x67x31xf32>) -> tensor<4x67x31xf32> {
  %dx = clifford.grade_rms_norm_adjoint <2, 0, 0> %g, %x : tensor<4x67x31xf32>
  return %dx : tensor<4x67x31xf32>
}
