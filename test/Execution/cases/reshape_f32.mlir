func.func @reshape_f32(%a: tensor<37x1027xf32>) -> tensor<37999xf32> {
  %r = uta.reshape %a : tensor<37x1027xf32> -> tensor<37999xf32>
  return %r : tensor<37999xf32>
}
