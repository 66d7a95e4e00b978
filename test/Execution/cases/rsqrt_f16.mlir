func.func @rsqrt_f16(%a: tensor<37x1027xf16>) -> tensor<37x1027xf16> {
  %p = uta.abs %a : tensor<37x1027xf16>
  %r = uta.rsqrt %p : tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
