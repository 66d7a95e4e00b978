func.func @rsqrt_f32(%a: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %p = uta.abs %a : tensor<37x1027xf32>
  %r = uta.rsqrt %p : tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
