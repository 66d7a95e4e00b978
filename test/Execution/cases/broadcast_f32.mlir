func.func @broadcast_f32(%a: tensor<37x1027xf32>) -> tensor<3x37x1027xf32> {
  %r = uta.broadcast_to %a : tensor<37x1027xf32> -> tensor<3x37x1027xf32>
  return %r : tensor<3x37x1027xf32>
}
