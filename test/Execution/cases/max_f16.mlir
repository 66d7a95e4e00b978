func.func @max_f16(%a: tensor<37x1027xf16>, %b: tensor<1027xf16>) -> tensor<37x1027xf16> {
  %r = uta.max %a, %b : (tensor<37x1027xf16>, tensor<1027xf16>) -> tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
