// fc_product_pair_cotangents on the GEMM engine as a grouped GEMM (f32 as
// 3xTF32 on CUDA): batch element q of the 44 path groups reads the
// cotangent's blade and the weights' path of its group (a table, not a
// broadcast); 200 batch rows (a partial row tile), 96 input features, K =
// 136 output features (a partial K tile).
func.func @fc_pair_cotangents_cl300(%g: tensor<8x200x136xf32>, %w: tensor<20x96x136xf32>) -> tensor<44x200x96xf32> {
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x200x136xf32>, tensor<20x96x136xf32>) -> tensor<44x200x96xf32>
  return %t : tensor<44x200x96xf32>
}
