// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// fc_product_weight_gradient in plain TF32 in a degenerate algebra
// (Cl(2,0,1)), written K-major ([P, Fout, Fin]); 30 input features (rows of
// x and y not 16-byte aligned: copied element by element), 77 batch rows.
func.func @fc_weight_gradient_tf32_kmajor_cl201(%g: tensor<8x77x48xf32>, %x: tensor<8x77x30xf32>, %y: tensor<8x77x30xf32>) -> tensor<19x48x30xf32> {
  %r = clifford.fc_product_weight_gradient <2, 0, 1> %g, %x, %y {transpose_weights = true} : (tensor<8x77x48xf32>, tensor<8x77x30xf32>, tensor<8x77x30xf32>) -> tensor<19x48x30xf32>
  return %r : tensor<19x48x30xf32>
}
