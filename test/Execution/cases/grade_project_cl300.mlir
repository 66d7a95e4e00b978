func.func @grade_project_cl300(%x: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %r = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x19x67xf32>
  return %r : tensor<8x19x67xf32>
}
