// GEMM engine epilogue: tanh(relu(a b)) in f32 (3xTF32), batched.
func.func @gemm_epilogue_f32_relu_tanh(%a: tensor<3x50x33xf32>, %b: tensor<3x33x41xf32>) -> tensor<3x50x41xf32> {
  %0 = uta.matmul %a, %b : (tensor<3x50x33xf32>, tensor<3x33x41xf32>) -> tensor<3x50x41xf32>
  %1 = uta.relu %0 : tensor<3x50x41xf32>
  %2 = uta.tanh %1 : tensor<3x50x41xf32>
  return %2 : tensor<3x50x41xf32>
}
