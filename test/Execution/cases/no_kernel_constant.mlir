// A graph that needs no computation: a constant result and a returned
// argument. No kernel; the SPIR-V module holds one entry point that nothing
// launches.
func.func @no_kernel(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %c = arith.constant dense<[[1.0, -2.0, 3.5], [0.25, 8.0, -1.0], [2.0, 2.0, 2.0], [0.0, -0.5, 4.0]]> : tensor<4x3xf32>
  return %c, %x : tensor<4x3xf32>, tensor<4x3xf32>
}
