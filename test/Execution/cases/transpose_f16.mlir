func.func @transpose_f16(%a: tensor<37x1027xf16>) -> tensor<1027x37xf16> {
  %r = uta.transpose %a [1, 0] : tensor<37x1027xf16> -> tensor<1027x37xf16>
  return %r : tensor<1027x37xf16>
}
