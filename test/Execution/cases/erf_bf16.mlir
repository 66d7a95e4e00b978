// uta.erf in bf16: computed in f32, rounded once on the store.
func.func @erf_bf16(%a: tensor<37x1027xbf16>) -> tensor<37x1027xbf16> {
  %r = uta.erf %a : tensor<37x1027xbf16>
  return %r : tensor<37x1027xbf16>
}
