// fc_product on the GEMM engine with operand blade sets: x holds vectors,
// y scalars and bivectors, so only the slots of their terms exist and the
// other result blades are zeros.
func.func @fc_engine_grades_cl300(%x: tensor<8x96x32xf32>, %y: tensor<8x96x32xf32>, %w: tensor<20x32x64xf32>) -> tensor<8x96x64xf32> {
  %vx = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x96x32xf32>
  %vy = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x96x32xf32>
  %r = clifford.fc_product <3, 0, 0> %vx, %vy, %w : (tensor<8x96x32xf32>, tensor<8x96x32xf32>, tensor<20x32x64xf32>) -> tensor<8x96x64xf32>
  return %r : tensor<8x96x64xf32>
}
