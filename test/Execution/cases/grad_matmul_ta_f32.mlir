// gpu-check-grad: vjp
// The gradient of a matmul whose A is stored [K, M]: dA comes back in A's
// layout (B g^T), and dB = A^T g reads A as stored, summed over the batch.
func.func @matmul_ta_f32(%a: tensor<3x65x37xf32>, %b: tensor<65x33xf32>) -> tensor<3x37x33xf32> {
  %c = uta.matmul %a, %b {transpose_a = true} : (tensor<3x65x37xf32>, tensor<65x33xf32>) -> tensor<3x37x33xf32>
  return %c : tensor<3x37x33xf32>
}
