func.func @broadcast_bf16(%a: tensor<37x1027xbf16>) -> tensor<3x37x1027xbf16> {
  %r = uta.broadcast_to %a : tensor<37x1027xbf16> -> tensor<3x37x1027xbf16>
  return %r : tensor<3x37x1027xbf16>
}
