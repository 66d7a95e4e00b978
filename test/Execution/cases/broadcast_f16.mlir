func.func @broadcast_f16(%a: tensor<37x1027xf16>) -> tensor<3x37x1027xf16> {
  %r = uta.broadcast_to %a : tensor<37x1027xf16> -> tensor<3x37x1027xf16>
  return %r : tensor<3x37x1027xf16>
}
