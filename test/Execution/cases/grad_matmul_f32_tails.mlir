// gpu-check-grad: vjp
// The gradient of a batched matmul against one shared weight, with M, N and
// K off every tile: dA is a matmul with transpose_b, dB one matmul over the
// rows of the whole batch.
func.func @matmul_f32_tails(%a: tensor<3x37x65xf32>, %b: tensor<65x33xf32>) -> tensor<3x37x33xf32> {
  %c = uta.matmul %a, %b : (tensor<3x37x65xf32>, tensor<65x33xf32>) -> tensor<3x37x33xf32>
  return %c : tensor<3x37x33xf32>
}
