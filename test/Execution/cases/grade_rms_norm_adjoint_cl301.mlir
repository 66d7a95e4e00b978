// The adjoint of grade_rms_norm in the degenerate Cl(3,0,1) with 600
// features: 3 rounds of 32 blade values, too many to hold, so the second
// pass reads g and x again.
func.func @grade_rms_norm_adjoint_cl301(%g: tensor<16x5x600xf32>, %x: tensor<16x5x600xf32>) -> tensor<16x5x600xf32> {
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 1> %g, %x : tensor<16x5x600xf32>
  return %dx : tensor<16x5x600xf32>
}
