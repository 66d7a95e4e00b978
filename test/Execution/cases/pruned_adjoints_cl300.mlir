// Adjoints of products whose cotangent and other operand have known grades:
// the uta phase records their blade sets (clifford-simplify-grades:
// cotangent_blades, other_blades) and the kernels leave out the Cayley terms
// of the zero blades; the float64 reference computes every term. The
// geometric product's adjoints with a bivector-and-scalar cotangent and a
// vector, the outer product's with a bivector cotangent, the left
// contraction's with respect to rhs (vector cotangent and lhs), the scalar product's with a vector, and
// weighted_product's (path weights per feature) with respect to lhs and rhs.
func.func @pruned_adjoints_cl300(%g: tensor<8x19x67xf32>, %x: tensor<8x19x67xf32>, %y: tensor<8x19x67xf32>, %s: tensor<1x19x67xf32>, %w: tensor<67x20xf32>) -> (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>) {
  %ge = clifford.grade_project <3, 0, 0> %g grades [0, 2] : tensor<8x19x67xf32>
  %gb = clifford.grade_project <3, 0, 0> %g grades [2] : tensor<8x19x67xf32>
  %gv = clifford.grade_project <3, 0, 0> %g grades [1] : tensor<8x19x67xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x19x67xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x19x67xf32>
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %ge, %v : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %dy = clifford.product_adjoint <3, 0, 0> geometric rhs %ge, %v : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %do = clifford.product_adjoint <3, 0, 0> outer lhs %gb, %v : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %dl = clifford.product_adjoint <3, 0, 0> left_contraction rhs %gv, %v : (tensor<8x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %ds = clifford.product_adjoint <3, 0, 0> scalar lhs %s, %b : (tensor<1x19x67xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  %wl = clifford.weighted_product_adjoint <3, 0, 0> lhs %ge, %v, %w : (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<67x20xf32>) -> tensor<8x19x67xf32>
  %wr = clifford.weighted_product_adjoint <3, 0, 0> rhs %gb, %b, %w : (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<67x20xf32>) -> tensor<8x19x67xf32>
  return %dx, %dy, %do, %dl, %ds, %wl, %wr : tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<8x19x67xf32>
}
