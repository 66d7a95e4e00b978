func.func @tanh_bf16(%a: tensor<37x1027xbf16>) -> tensor<37x1027xbf16> {
  %r = uta.tanh %a : tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
