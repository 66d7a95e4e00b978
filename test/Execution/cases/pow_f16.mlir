// uta.pow in f16 with an exponent of rank 0 broadcast to every element; the
// base is |a| + 0.5, so that results stay within f16's range.
func.func @pow_f16(%a: tensor<37x1027xf16>, %b: tensor<f16>) -> tensor<37x1027xf16> {
  %half = arith.constant dense<0.5> : tensor<f16>
  %m = uta.abs %a : tensor<37x1027xf16>
  %base = uta.add %m, %half : (tensor<37x1027xf16>, tensor<f16>) -> tensor<37x1027xf16>
  %r = uta.pow %base, %b : (tensor<37x1027xf16>, tensor<f16>) -> tensor<37x1027xf16>
  return %r : tensor<37x1027xf16>
}
