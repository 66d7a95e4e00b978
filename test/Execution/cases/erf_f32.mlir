// uta.erf over a shape with a tail (not a multiple of the block or of 4).
func.func @erf_f32(%a: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.erf %a : tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
