func.func @transpose_f32(%a: tensor<37x1027xf32>) -> tensor<1027x37xf32> {
  %r = uta.transpose %a [1, 0] : tensor<37x1027xf32> -> tensor<1027x37xf32>
  return %r : tensor<1027x37xf32>
}
