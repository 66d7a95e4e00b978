func.func @grade_project_cl200(%x: tensor<4x19x67xf32>) -> tensor<4x19x67xf32> {
  %r = clifford.grade_project <2, 0, 0> %x grades [0, 2] : tensor<4x19x67xf32>
  return %r : tensor<4x19x67xf32>
}
