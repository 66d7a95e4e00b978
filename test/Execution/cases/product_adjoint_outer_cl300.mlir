// The adjoints of the outer product in Cl(3,0) with respect to lhs and rhs,
// blade axis 0; the cotangent broadcasts over axis 1, the other operand over
// axis 2.
func.func @product_adjoint_outer_cl300(%g: tensor<8x1x67xf32>, %o: tensor<8x19x1xf32>) -> (tensor<8x19x67xf32>, tensor<8x19x67xf32>) {
  %dx = clifford.product_adjoint <3, 0, 0> outer lhs %g, %o : (tensor<8x1x67xf32>, tensor<8x19x1xf32>) -> tensor<8x19x67xf32>
  %dy = clifford.product_adjoint <3, 0, 0> outer rhs %g, %o : (tensor<8x1x67xf32>, tensor<8x19x1xf32>) -> tensor<8x19x67xf32>
  return %dx, %dy : tensor<8x19x67xf32>, tensor<8x19x67xf32>
}
