// uta.pow with a broadcast exponent; the base is |a| + 0.5 so that every
// result is finite and defined on every target (GLSL leaves pow of a
// negative or zero base partly undefined), fused into one kernel.
func.func @pow_f32(%a: tensor<37x1027xf32>, %b: tensor<1027xf32>) -> tensor<37x1027xf32> {
  %half = arith.constant dense<0.5> : tensor<f32>
  %m = uta.abs %a : tensor<37x1027xf32>
  %base = uta.add %m, %half : (tensor<37x1027xf32>, tensor<f32>) -> tensor<37x1027xf32>
  %r = uta.pow %base, %b : (tensor<37x1027xf32>, tensor<1027xf32>) -> tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
