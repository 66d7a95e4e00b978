// The per-position adjoint of weighted_product's path weights: [P, B, F].
func.func @path_adjoint_cl200(%g: tensor<4x67x31xf32>, %x: tensor<4x67x31xf32>, %y: tensor<4x67x31xf32>) -> tensor<10x67x31xf32> {
  %r = clifford.path_adjoint <2, 0, 0> %g, %x, %y : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<4x67x31xf32>) -> tensor<10x67x31xf32>
  return %r : tensor<10x67x31xf32>
}
