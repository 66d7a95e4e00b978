// The adjoints of the scalar product in the degenerate Cl(3,0,1) with respect
// to lhs and rhs, blade axis 1; the cotangent broadcasts over axis 2, the other
// operand over axis 0. The cotangent of a scalar product has one blade.
func.func @product_adjoint_scalar_cl301(%g: tensor<19x1x1xf32>, %o: tensor<1x16x67xf32>) -> (tensor<19x16x67xf32>, tensor<19x16x67xf32>) {
  %dx = clifford.product_adjoint <3, 0, 1> scalar lhs %g, %o {blade_axis = 1} : (tensor<19x1x1xf32>, tensor<1x16x67xf32>) -> tensor<19x16x67xf32>
  %dy = clifford.product_adjoint <3, 0, 1> scalar rhs %g, %o {blade_axis = 1} : (tensor<19x1x1xf32>, tensor<1x16x67xf32>) -> tensor<19x16x67xf32>
  return %dx, %dy : tensor<19x16x67xf32>, tensor<19x16x67xf32>
}
