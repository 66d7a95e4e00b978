// fc_product_adjoint with respect to y in a degenerate algebra (PGA,
// Cl(3,0,1): the terms through e0 vanish, so blades have fewer terms).
func.func @fc_adjoint_cl301(%g: tensor<16x64x48xf32>, %x: tensor<16x64x32xf32>, %w: tensor<34x32x48xf32>) -> tensor<16x64x32xf32> {
  %r = clifford.fc_product_adjoint <3, 0, 1> rhs %g, %x, %w : (tensor<16x64x48xf32>, tensor<16x64x32xf32>, tensor<34x32x48xf32>) -> tensor<16x64x32xf32>
  return %r : tensor<16x64x32xf32>
}
