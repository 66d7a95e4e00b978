// gpu-check: --fast-math
// gpu-check-tolerance: 2e-3
// --fast-math: tanh, exp and log as PTX's approximate instructions
// (RelaxedPrecision on SPIR-V), within the fast-math tolerance of f32.
func.func @fast_math_chain(%a: tensor<37x1027xf32>, %b: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %t = uta.tanh %a : tensor<37x1027xf32>
  %e = uta.exp %t : tensor<37x1027xf32>
  %s = uta.sigmoid %b : tensor<37x1027xf32>
  %l = uta.log %e : tensor<37x1027xf32>
  %m = uta.mul %l, %s : (tensor<37x1027xf32>, tensor<37x1027xf32>) -> tensor<37x1027xf32>
  return %m : tensor<37x1027xf32>
}
