func.func @grade_rms_norm_cl300(%x: tensor<8x67x31xf32>) -> tensor<8x67x31xf32> {
  %r = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x67x31xf32>
  return %r : tensor<8x67x31xf32>
}
