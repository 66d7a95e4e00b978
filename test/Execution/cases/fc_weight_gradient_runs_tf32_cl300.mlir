// gpu-check: --allow-tf32
// gpu-check-tolerance: 5e-3
// fc_product_weight_gradient in plain TF32 in four runs of the batch (batch_runs, what
// uta-split-k makes), every operand batch-contiguous: on sm_90a the
// warp-specialised kernel with four blocks per tile, each over its run's
// 64 rows (two K tiles) into its index of the leading axis; 40 input and 72
// output features (partial tiles); K-major weights (transpose_weights).
func.func @fc_weight_gradient_runs_tf32_cl300(%g: tensor<8x72x256xf32>, %x: tensor<8x40x256xf32>, %y: tensor<8x40x256xf32>) -> tensor<4x20x72x40xf32> {
  %r = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y {batch_runs = 4, transpose_cotangent = true, transpose_pairs = true, transpose_weights = true} : (tensor<8x72x256xf32>, tensor<8x40x256xf32>, tensor<8x40x256xf32>) -> tensor<4x20x72x40xf32>
  return %r : tensor<4x20x72x40xf32>
}
