// fc_product_weight_gradient on the GEMM engine (mma.sync, f32 as 3xTF32):
// per path, M = 40 input features and N = 72 output features (partial
// tiles), K = 200 batch rows once per cotangent blade (a partial K tile),
// the pair products formed from transposed x and y tiles in registers.
func.func @fc_weight_gradient_cl300(%g: tensor<8x200x72xf32>, %x: tensor<8x200x40xf32>, %y: tensor<8x200x40xf32>) -> tensor<20x40x72xf32> {
  %r = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y : (tensor<8x200x72xf32>, tensor<8x200x40xf32>, tensor<8x200x40xf32>) -> tensor<20x40x72xf32>
  return %r : tensor<20x40x72xf32>
}
