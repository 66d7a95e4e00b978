func.func @reduce_max(%a: tensor<37x1027xf32>) -> tensor<37xf32> {
  %r = uta.reduce_max %a dims [1] : tensor<37x1027xf32> -> tensor<37xf32>
  return %r : tensor<37xf32>
}
