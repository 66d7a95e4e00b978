// Projective GA Cl(3,0,1), where e0 squares to 0: an even motor (grades 0,
// 2, 4) acting on planes (grade 1), and a plane times itself, with the
// Cayley terms of the zero blades left out by the grade analysis.
func.func @pruned_products_cl301(%m: tensor<16x1x1xf32>, %x: tensor<16x19x67xf32>) -> (tensor<16x19x67xf32>, tensor<16x19x67xf32>) {
  %motor = clifford.grade_project <3, 0, 1> %m grades [0, 2, 4] : tensor<16x1x1xf32>
  %plane = clifford.grade_project <3, 0, 1> %x grades [1] : tensor<16x19x67xf32>
  %s = clifford.sandwich <3, 0, 1> %motor, %plane : (tensor<16x1x1xf32>, tensor<16x19x67xf32>) -> tensor<16x19x67xf32>
  %q = clifford.geometric_product <3, 0, 1> %plane, %plane : (tensor<16x19x67xf32>, tensor<16x19x67xf32>) -> tensor<16x19x67xf32>
  return %s, %q : tensor<16x19x67xf32>, tensor<16x19x67xf32>
}
