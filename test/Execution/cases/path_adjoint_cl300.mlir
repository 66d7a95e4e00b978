// The per-position adjoint of weighted_product's path weights: [P, B, F].
func.func @path_adjoint_cl300(%g: tensor<8x67x31xf32>, %x: tensor<8x67x31xf32>, %y: tensor<8x67x31xf32>) -> tensor<20x67x31xf32> {
  %r = clifford.path_adjoint <3, 0, 0> %g, %x, %y : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<8x67x31xf32>) -> tensor<20x67x31xf32>
  return %r : tensor<20x67x31xf32>
}
