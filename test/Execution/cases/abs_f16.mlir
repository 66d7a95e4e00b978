func.func @abs_f16(%a: tensor<37x1027xf16>) -> tensor<37x1027xf16> {
  %r = uta.abs %a : tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
