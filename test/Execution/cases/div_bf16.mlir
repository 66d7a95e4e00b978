func.func @div_bf16(%a: tensor<37x1027xbf16>, %b: tensor<1027xbf16>) -> tensor<37x1027xbf16> {
  %r = uta.div %a, %b : (tensor<37x1027xbf16>, tensor<1027xbf16>) -> tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
