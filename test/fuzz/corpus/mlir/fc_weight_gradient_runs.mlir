func.func @f(%g: tensor<4x8x3xf32>, %x: tensor<4x8x2xf32>) -> tensor<10x2x3xf32> {
  %r = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {batch_runs = 4} : (tensor<4x8x3xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>) -> tensor<4x10x2x3xf32>
  %s = uta.reduce_sum %r dims [0] : tensor<4x10x2x3xf32> -> tensor<10x2x3xf32>
  return %s : tensor<10x2x3xf32>
}
