func.func @cast_bf16_f32(%a: tensor<37x1027xbf16>) -> tensor<37x1027xf32> {
  %r = uta.cast %a : tensor<37x1027xbf16> -> tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
