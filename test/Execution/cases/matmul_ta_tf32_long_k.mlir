// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// A linear layer's weight gradient, x^T g with K running over the batch:
// x [2, 4096, 96] read as stored (transpose_a), g [2, 4096, 64], plain TF32.
func.func @matmul_ta_tf32_long_k(%x: tensor<2x4096x96xf32>, %g: tensor<2x4096x64xf32>) -> tensor<2x96x64xf32> {
  %r = uta.matmul %x, %g {transpose_a = true} : (tensor<2x4096x96xf32>, tensor<2x4096x64xf32>) -> tensor<2x96x64xf32>
  return %r : tensor<2x96x64xf32>
}
