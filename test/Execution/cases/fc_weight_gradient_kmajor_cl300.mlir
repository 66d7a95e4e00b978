// fc_product_weight_gradient with every operand batch-contiguous
// (transpose_pairs, transpose_cotangent): on sm_90a fc_product's
// warp-specialised kernel (TMA, wgmma) with the operands' roles moved; 40
// input features and 72 output features (partial tiles), K = 200 batch rows
// per cotangent blade (a partial K tile).
func.func @fc_weight_gradient_kmajor_cl300(%g: tensor<8x72x200xf32>, %x: tensor<8x40x200xf32>, %y: tensor<8x40x200xf32>) -> tensor<20x40x72xf32> {
  %r = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y {transpose_cotangent = true, transpose_pairs = true} : (tensor<8x72x200xf32>, tensor<8x40x200xf32>, tensor<8x40x200xf32>) -> tensor<20x40x72xf32>
  return %r : tensor<20x40x72xf32>
}
