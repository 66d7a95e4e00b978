// The adjoints of the scalar product in Cl(3,0) with respect to lhs and rhs,
// blade axis 0; the cotangent broadcasts over axis 1, the other operand over
// axis 2. The cotangent of a scalar product has one blade.
func.func @product_adjoint_scalar_cl300(%g: tensor<1x1x67xf32>, %o: tensor<8x19x1xf32>) -> (tensor<8x19x67xf32>, tensor<8x19x67xf32>) {
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %o : (tensor<1x1x67xf32>, tensor<8x19x1xf32>) -> tensor<8x19x67xf32>
  %dy = clifford.product_adjoint <3, 0, 0> scalar rhs %g, %o : (tensor<1x1x67xf32>, tensor<8x19x1xf32>) -> tensor<8x19x67xf32>
  return %dx, %dy : tensor<8x19x67xf32>, tensor<8x19x67xf32>
}
