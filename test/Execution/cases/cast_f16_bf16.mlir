func.func @cast_f16_bf16(%a: tensor<37x1027xf16>) -> tensor<37x1027xbf16> {
  %r = uta.cast %a : tensor<37x1027xf16> -> tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
