// Projective GA Cl(3,0,1), where e0 squares to 0: the adjoints of the
// geometric product of an even motor (grades 0, 2, 4, broadcast over the
// batch) and planes (grade 1), with respect to each operand, for a plane
// cotangent: the terms of the zero blades are left out by the grade
// analysis (cotangent_blades, other_blades); the float64 reference computes
// every term.
func.func @pruned_adjoints_cl301(%g: tensor<16x19x67xf32>, %m: tensor<16x1x1xf32>, %x: tensor<16x19x67xf32>) -> (tensor<16x19x67xf32>, tensor<16x19x67xf32>) {
  %plane_g = clifford.grade_project <3, 0, 1> %g grades [1] : tensor<16x19x67xf32>
  %motor = clifford.grade_project <3, 0, 1> %m grades [0, 2, 4] : tensor<16x1x1xf32>
  %plane = clifford.grade_project <3, 0, 1> %x grades [1] : tensor<16x19x67xf32>
  %dm = clifford.product_adjoint <3, 0, 1> geometric lhs %plane_g, %plane : (tensor<16x19x67xf32>, tensor<16x19x67xf32>) -> tensor<16x19x67xf32>
  %dx = clifford.product_adjoint <3, 0, 1> geometric rhs %plane_g, %motor : (tensor<16x19x67xf32>, tensor<16x1x1xf32>) -> tensor<16x19x67xf32>
  return %dm, %dx : tensor<16x19x67xf32>, tensor<16x19x67xf32>
}
