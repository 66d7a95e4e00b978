// The adjoints of weighted_product with respect to lhs and rhs.
func.func @weighted_product_adjoint_cl300(%g: tensor<8x67x31xf32>, %o: tensor<8x67x31xf32>, %w: tensor<31x20xf32>) -> (tensor<8x67x31xf32>, tensor<8x67x31xf32>) {
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %o, %w : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<31x20xf32>) -> tensor<8x67x31xf32>
  %dy = clifford.weighted_product_adjoint <3, 0, 0> rhs %g, %o, %w : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<31x20xf32>) -> tensor<8x67x31xf32>
  return %dx, %dy : tensor<8x67x31xf32>, tensor<8x67x31xf32>
}
