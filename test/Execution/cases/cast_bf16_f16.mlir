func.func @cast_bf16_f16(%a: tensor<37x1027xbf16>) -> tensor<37x1027xf16> {
  %r = uta.cast %a : tensor<37x1027xbf16> -> tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
