// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// The warp-specialised fc_product in plain TF32 with operand blade sets: x
// holds vectors, y scalars and bivectors, so the result blades of other
// grades have no slots, and their blocks no steps (nothing in flight to
// wait for, no weights to release); their results are zeros.
func.func @fc_tma_tf32_grades_cl300(%x: tensor<8x200x32xf32>, %y: tensor<8x200x32xf32>, %w: tensor<20x32x64xf32>) -> tensor<8x200x64xf32> {
  %vx = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x200x32xf32>
  %vy = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x200x32xf32>
  %r = clifford.fc_product <3, 0, 0> %vx, %vy, %w : (tensor<8x200x32xf32>, tensor<8x200x32xf32>, tensor<20x32x64xf32>) -> tensor<8x200x64xf32>
  return %r : tensor<8x200x64xf32>
}
