// GEMM engine: batch dimensions broadcast NumPy-style ([2, 1] with [3]).
func.func @gemm_f32_batched_broadcast(%a: tensor<2x1x37x53xf32>, %b: tensor<3x53x29xf32>) -> tensor<2x3x37x29xf32> {
  %r = uta.matmul %a, %b : (tensor<2x1x37x53xf32>, tensor<3x53x29xf32>) -> tensor<2x3x37x29xf32>
  return %r : tensor<2x3x37x29xf32>
}
