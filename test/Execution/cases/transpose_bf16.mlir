func.func @transpose_bf16(%a: tensor<37x1027xbf16>) -> tensor<1027x37xbf16> {
  %r = uta.transpose %a [1, 0] : tensor<37x1027xbf16> -> tensor<1027x37xbf16>
  return %r : tensor<1027x37xbf16>
}
