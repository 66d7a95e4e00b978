func.func @sigmoid_bf16(%a: tensor<37x1027xbf16>) -> tensor<37x1027xbf16> {
  %r = uta.sigmoid %a : tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
