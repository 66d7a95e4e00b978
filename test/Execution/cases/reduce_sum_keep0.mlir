func.func @reduce_sum_keep0(%a: tensor<37x1027xf32>) -> tensor<1x1027xf32> {
  %r = uta.reduce_sum %a dims [0] {keep_dims = true} : tensor<37x1027xf32> -> tensor<1x1027xf32>
  return %r : tensor<1x1027xf32>
}
