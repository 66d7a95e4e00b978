// f16 with a tail: 333 * 1001 = 333333 elements, 4 halves (64 bits) per
// vector access, the last thread takes the 1 left; f32 arithmetic.
func.func @vec_tail_f16(%a: tensor<333x1001xf16>, %b: tensor<333x1001xf16>) -> tensor<333x1001xf16> {
  %0 = uta.mul %a, %b : (tensor<333x1001xf16>, tensor<333x1001xf16>) -> tensor<333x1001xf16>
  %1 = uta.sigmoid %0 : tensor<333x1001xf16>
  return %1 : tensor<333x1001xf16>
}
