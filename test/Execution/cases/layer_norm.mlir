func.func @layer_norm(%a: tensor<37x1027xf32>, %w: tensor<1027xf32>, %b: tensor<1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.layer_norm %a, %w, %b axis 1 : (tensor<37x1027xf32>, tensor<1027xf32>, tensor<1027xf32>) -> tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
