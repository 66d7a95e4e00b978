func.func @grade_project_cl37(%x: tensor<16x19x67xf32>) -> tensor<16x19x67xf32> {
  %r = clifford.grade_project <3, 0, 1> %x grades [0, 2] : tensor<16x19x67xf32>
  return %r : tensor<16x19x67xf32>
}
