func.func @min_f32(%a: tensor<37x1027xf32>, %b: tensor<1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.min %a, %b : (tensor<37x1027xf32>, tensor<1027xf32>) -> tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
