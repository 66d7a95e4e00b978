func.func @rsqrt_bf16(%a: tensor<37x1027xbf16>) -> tensor<37x1027xbf16> {
  %p = uta.abs %a : tensor<37x1027xbf16>
  %r = uta.rsqrt %p : tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
