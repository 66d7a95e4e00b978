// The adjoints of the geometric product in the degenerate Cl(3,0,1) with
// respect to lhs and rhs, blade axis 1; the cotangent broadcasts over axis 2,
// the other operand over axis 0.
func.func @product_adjoint_geometric_cl301(%g: tensor<19x16x1xf32>, %o: tensor<1x16x67xf32>) -> (tensor<19x16x67xf32>, tensor<19x16x67xf32>) {
  %dx = clifford.product_adjoint <3, 0, 1> geometric lhs %g, %o {blade_axis = 1} : (tensor<19x16x1xf32>, tensor<1x16x67xf32>) -> tensor<19x16x67xf32>
  %dy = clifford.product_adjoint <3, 0, 1> geometric rhs %g, %o {blade_axis = 1} : (tensor<19x16x1xf32>, tensor<1x16x67xf32>) -> tensor<19x16x67xf32>
  return %dx, %dy : tensor<19x16x67xf32>, tensor<19x16x67xf32>
}
