func.func @gelu_tanh_f16(%a: tensor<37x1027xf16>) -> tensor<37x1027xf16> {
  %r = uta.gelu %a {tanh_approximation = true} : tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
