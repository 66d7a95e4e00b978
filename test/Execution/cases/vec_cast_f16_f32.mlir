// A cast whose source and result are both read and written 4 at a time:
// 64-bit f16 loads, 128-bit f32 stores.
func.func @vec_cast_f16_f32(%a: tensor<300x516xf16>) -> tensor<300x516xf32> {
  %r = uta.cast %a : tensor<300x516xf16> -> tensor<300x516xf32>
  return %r : tensor<300x516xf32>
}
