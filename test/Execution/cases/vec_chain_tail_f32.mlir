// Vectorized elementwise chain over 1000003 elements (not a multiple of 4):
// 250000 threads take 4 elements each with 128-bit accesses, the last thread
// the 3 left one by one; 977 blocks.
func.func @vec_chain_tail_f32(%a: tensor<1000003xf32>, %b: tensor<1000003xf32>, %c: tensor<1000003xf32>) -> tensor<1000003xf32> {
  %0 = uta.mul %a, %b : (tensor<1000003xf32>, tensor<1000003xf32>) -> tensor<1000003xf32>
  %1 = uta.add %0, %c : (tensor<1000003xf32>, tensor<1000003xf32>) -> tensor<1000003xf32>
  %2 = uta.gelu %1 : tensor<1000003xf32>
  %3 = uta.sub %2, %a : (tensor<1000003xf32>, tensor<1000003xf32>) -> tensor<1000003xf32>
  return %3 : tensor<1000003xf32>
}
