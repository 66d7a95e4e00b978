// fc_product_pair_adjoints: both adjoints of fc_product from one read of the
// pair cotangents, per (b, f); x's gradient first (y's blades times the
// groups' cotangents), then y's (x's blades); 37 features (not a multiple
// of 4: a scalar tail when vectorized).
func.func @fc_pair_adjoints_cl300(%t: tensor<44x50x37xf32>, %x: tensor<8x50x37xf32>, %y: tensor<8x50x37xf32>) -> (tensor<8x50x37xf32>, tensor<8x50x37xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %y : (tensor<44x50x37xf32>, tensor<8x50x37xf32>, tensor<8x50x37xf32>) -> (tensor<8x50x37xf32>, tensor<8x50x37xf32>)
  return %dx, %dy : tensor<8x50x37xf32>, tensor<8x50x37xf32>
}
