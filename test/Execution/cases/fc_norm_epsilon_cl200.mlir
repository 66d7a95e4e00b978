// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// fc_product then grade_rms_norm with an epsilon of its own (0.5, large
// beside the rows' mean squares of about 0.1, so that a kernel that
// dropped it or applied the default would fail): no gates, one kernel.
// Many row tiles (B 1000) in several waves of 132 blocks.
func.func @fc_norm_epsilon_cl200(%x: tensor<4x1000x32xf32>, %y: tensor<4x1000x32xf32>, %w: tensor<10x32x256xf32>) -> tensor<4x1000x256xf32> {
  %p = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x1000x32xf32>, tensor<4x1000x32xf32>, tensor<10x32x256xf32>) -> tensor<4x1000x256xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p {epsilon = 5.0e-01 : f32} : tensor<4x1000x256xf32>
  return %n : tensor<4x1000x256xf32>
}
