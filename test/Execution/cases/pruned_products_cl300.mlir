// Products of operands whose grades are known: the uta phase records their
// blade sets (clifford-simplify-grades) and the kernels leave out the Cayley
// terms of the zero blades; the float64 reference computes every term.
// v (vectors) has four consumers and stays in memory; u and c are read once
// and are recomputed inside the outer product's kernel.
func.func @pruned_products_cl300(%x: tensor<8x19x67xf32>, %y: tensor<8x19x67xf32>, %r: tensor<8x1x1xf32>, %w: tensor<67x20xf32>) -> (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>) {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x19x67xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x19x67xf32>
  %e = clifford.grade_project <3, 0, 0> %r grades [0, 2] : tensor<8x1x1xf32>
  %gp = clifford.geometric_product <3, 0, 0> %v, %b : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %lc = clifford.left_contraction <3, 0, 0> %v, %b : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %s = clifford.sandwich <3, 0, 0> %e, %v : (tensor<8x1x1xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %wp = clifford.weighted_product <3, 0, 0> %v, %b, %w : (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<67x20xf32>) -> tensor<8x19x67xf32>
  %u = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x19x67xf32>
  %c = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x19x67xf32>
  %o = clifford.outer_product <3, 0, 0> %u, %c : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  return %gp, %lc, %s, %wp, %o : tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>
}
