// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// fc_product_pair_cotangents in plain TF32 with K-major weights
// [P, Fout, Fin] in a degenerate algebra (no group of a null square): rows of
// 27 floats, not 16-byte aligned, 70 batch rows and 36 input features
// (partial tiles).
func.func @fc_pair_cotangents_tf32_kmajor_cl301(%g: tensor<16x70x27xf32>, %w: tensor<34x27x36xf32>) -> tensor<108x70x36xf32> {
  %t = clifford.fc_product_pair_cotangents <3, 0, 1> %g, %w {transpose_weights = true} : (tensor<16x70x27xf32>, tensor<34x27x36xf32>) -> tensor<108x70x36xf32>
  return %t : tensor<108x70x36xf32>
}
