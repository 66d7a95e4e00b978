// fc_product_pair_adjoints in a degenerate algebra: terms of a null square
// are absent, and their groups too; both results from one read of the 108
// groups' cotangents.
func.func @fc_pair_adjoints_cl301(%t: tensor<108x9x20xf32>, %x: tensor<16x9x20xf32>, %y: tensor<16x9x20xf32>) -> (tensor<16x9x20xf32>, tensor<16x9x20xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 1> %t, %x, %y : (tensor<108x9x20xf32>, tensor<16x9x20xf32>, tensor<16x9x20xf32>) -> (tensor<16x9x20xf32>, tensor<16x9x20xf32>)
  return %dx, %dy : tensor<16x9x20xf32>, tensor<16x9x20xf32>
}
