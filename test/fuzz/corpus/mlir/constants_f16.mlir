// Non-splat constants of each type, broadcast into a small chain.
func.func @constants(%a: tensor<2x3xf16>) -> tensor<2x3xf32> {
  %c = arith.constant dense<[[1.0, -2.0, 0.5], [3.0, 0.0, -0.25]]> : tensor<2x3xf16>
  %s = arith.constant dense<[1.5, 2.5, -1.0]> : tensor<3xf32>
  %m = uta.mul %a, %c : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %f = uta.cast %m : tensor<2x3xf16> -> tensor<2x3xf32>
  %r = uta.add %f, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
