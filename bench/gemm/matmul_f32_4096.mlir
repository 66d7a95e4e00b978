// B given [N, K] (transpose_b), as a linear layer stores its weights.
func.func @matmul_f32_4096(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
