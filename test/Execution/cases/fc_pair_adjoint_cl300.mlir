// fc_product_pair_adjoint with respect to x: every result blade the signed
// sum over its 8 terms of y's blade times its group's pair cotangent, per
// (b, f); 37 features (not a multiple of 4: a scalar tail when vectorized).
func.func @fc_pair_adjoint_cl300(%t: tensor<44x50x37xf32>, %y: tensor<8x50x37xf32>) -> tensor<8x50x37xf32> {
  %r = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %t, %y : (tensor<44x50x37xf32>, tensor<8x50x37xf32>) -> tensor<8x50x37xf32>
  return %r : tensor<8x50x37xf32>
}
