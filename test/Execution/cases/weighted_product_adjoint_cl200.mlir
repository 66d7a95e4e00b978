// The adjoints of weighted_product with respect to lhs and rhs.
func.func @weighted_product_adjoint_cl200(%g: tensor<4x67x31xf32>, %o: tensor<4x67x31xf32>, %w: tensor<31x10xf32>) -> (tensor<4x67x31xf32>, tensor<4x67x31xf32>) {
  %dx = clifford.weighted_product_adjoint <2, 0, 0> lhs %g, %o, %w : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<31x10xf32>) -> tensor<4x67x31xf32>
  %dy = clifford.weighted_product_adjoint <2, 0, 0> rhs %g, %o, %w : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<31x10xf32>) -> tensor<4x67x31xf32>
  return %dx, %dy : tensor<4x67x31xf32>, tensor<4x67x31xf32>
}
