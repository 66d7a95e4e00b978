func.func @cast_f32_bf16(%a: tensor<37x1027xf32>) -> tensor<37x1027xbf16> {
  %r = uta.cast %a : tensor<37x1027xf32> -> tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
