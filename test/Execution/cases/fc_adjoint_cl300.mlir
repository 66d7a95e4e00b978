// fc_product_adjoint with respect to x on the GEMM engine (mma.sync, f32 as
// 3xTF32): 16-byte aligned rows, 200 batch rows (a partial row tile), 96
// input features (the N tile), K = 136 output features per term (a partial
// K tile), eight terms per result blade folded in registers.
func.func @fc_adjoint_cl300(%g: tensor<8x200x136xf32>, %y: tensor<8x200x96xf32>, %w: tensor<20x96x136xf32>) -> tensor<8x200x96xf32> {
  %r = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x200x136xf32>, tensor<8x200x96xf32>, tensor<20x96x136xf32>) -> tensor<8x200x96xf32>
  return %r : tensor<8x200x96xf32>
}
