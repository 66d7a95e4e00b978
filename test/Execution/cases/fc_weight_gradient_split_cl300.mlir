// fc_product_weight_gradient as the training pipeline gets it (rows of x, y
// and the cotangent as they lie), 128 input and output features over a
// batch of 1024: on sm_90a in 3xTF32 a block per path (20 of 128x128) on
// the H100's or H200's 132 SMs, so uta-split-k gives it runs of the batch
// (80 blocks of 256 rows) and a uta.reduce_sum that adds them in order;
// uta-tensor-core-layouts copies the operands batch-contiguous.
func.func @fc_weight_gradient_split_cl300(%g: tensor<8x1024x128xf32>, %x: tensor<8x1024x128xf32>, %y: tensor<8x1024x128xf32>) -> tensor<20x128x128xf32> {
  %d = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y : (tensor<8x1024x128xf32>, tensor<8x1024x128xf32>, tensor<8x1024x128xf32>) -> tensor<20x128x128xf32>
  return %d : tensor<20x128x128xf32>
}
