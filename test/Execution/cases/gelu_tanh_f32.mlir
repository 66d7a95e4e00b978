func.func @gelu_tanh_f32(%a: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.gelu %a {tanh_approximation = true} : tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
