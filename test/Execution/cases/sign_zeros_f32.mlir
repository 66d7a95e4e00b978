// uta.sign of zeros of both signs (x * 0 and x * -0, fused into the sign's
// kernel) and of non-zero values: the zeros come back as they went in.
func.func @sign_zeros_f32(%x: tensor<37x67x3xf32>) -> tensor<37x67x3xf32> {
  %mask = arith.constant dense<[0.0, 1.0, -0.0]> : tensor<3xf32>
  %m = uta.mul %x, %mask : (tensor<37x67x3xf32>, tensor<3xf32>) -> tensor<37x67x3xf32>
  %r = uta.sign %m : tensor<37x67x3xf32>
  return %r : tensor<37x67x3xf32>
}
