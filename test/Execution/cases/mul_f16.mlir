func.func @mul_f16(%a: tensor<37x1027xf16>, %b: tensor<1027xf16>) -> tensor<37x1027xf16> {
  %r = uta.mul %a, %b : (tensor<37x1027xf16>, tensor<1027xf16>) -> tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
