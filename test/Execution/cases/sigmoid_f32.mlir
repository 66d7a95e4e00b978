func.func @sigmoid_f32(%a: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.sigmoid %a : tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
