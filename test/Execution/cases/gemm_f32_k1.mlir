// GEMM engine: K = 1 (one K tile, mostly zero-filled), M and N tails.
func.func @gemm_f32_k1(%a: tensor<77x1xf32>, %b: tensor<1x45xf32>) -> tensor<77x45xf32> {
  %r = uta.matmul %a, %b : (tensor<77x1xf32>, tensor<1x45xf32>) -> tensor<77x45xf32>
  return %r : tensor<77x45xf32>
}
