func.func @reshape_f16(%a: tensor<37x1027xf16>) -> tensor<37999xf16> {
  %r = uta.reshape %a : tensor<37x1027xf16> -> tensor<37999xf16>
  return %r : tensor<37999xf16>
}
