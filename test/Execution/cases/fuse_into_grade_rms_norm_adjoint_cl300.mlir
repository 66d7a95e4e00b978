// The backward of the SGP layer's norm: its input, weighted_product of two
// gates, recomputed inside the norm's adjoint in both passes; one kernel.
func.func @fuse_into_grade_rms_norm_adjoint_cl300(%g: tensor<8x19x67xf32>, %x: tensor<8x19x67xf32>, %y: tensor<8x19x67xf32>, %w: tensor<67x20xf32>) -> tensor<8x19x67xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x19x67xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x19x67xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w : (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<67x20xf32>) -> tensor<8x19x67xf32>
  %dp = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %p : tensor<8x19x67xf32>
  return %dp : tensor<8x19x67xf32>
}
