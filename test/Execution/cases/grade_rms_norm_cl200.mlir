func.func @grade_rms_norm_cl200(%x: tensor<4x67x31xf32>) -> tensor<4x67x31xf32> {
  %r = clifford.grade_rms_norm <2, 0, 0> %x : tensor<4x67x31xf32>
  return %r : tensor<4x67x31xf32>
}
