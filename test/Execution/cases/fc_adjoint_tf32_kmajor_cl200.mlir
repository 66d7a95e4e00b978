// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// fc_product_adjoint with respect to y in plain TF32, K-major weights
// [P, Fout, Fin]: the cotangent's rows of 27 floats are not 16-byte aligned
// (copied element by element), 70 batch rows and 36 input features (partial
// tiles).
func.func @fc_adjoint_tf32_kmajor_cl200(%g: tensor<4x70x27xf32>, %x: tensor<4x70x36xf32>, %w: tensor<10x27x36xf32>) -> tensor<4x70x36xf32> {
  %r = clifford.fc_product_adjoint <2, 0, 0> rhs %g, %x, %w {transpose_weights = true} : (tensor<4x70x27xf32>, tensor<4x70x36xf32>, tensor<10x27x36xf32>) -> tensor<4x70x36xf32>
  return %r : tensor<4x70x36xf32>
}
