// fc_product_pair_adjoint with respect to y in a degenerate algebra: terms
// of a null square are absent, and their groups too.
func.func @fc_pair_adjoint_cl301(%t: tensor<108x9x20xf32>, %x: tensor<16x9x20xf32>) -> tensor<16x9x20xf32> {
  %r = clifford.fc_product_pair_adjoint <3, 0, 1> rhs %t, %x : (tensor<108x9x20xf32>, tensor<16x9x20xf32>) -> tensor<16x9x20xf32>
  return %r : tensor<16x9x20xf32>
}
