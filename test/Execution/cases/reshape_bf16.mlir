func.func @reshape_bf16(%a: tensor<37x1027xbf16>) -> tensor<37999xbf16> {
  %r = uta.reshape %a : tensor<37x1027xbf16> -> tensor<37999xbf16>
  return %r : tensor<37999xbf16>
}
