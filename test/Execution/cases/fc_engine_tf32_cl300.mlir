// gpu-check: --allow-tf32 --uta-gemm-config=fc128x128x16
// gpu-check-tolerance: 2e-3
// fc_product on the GEMM engine in plain TF32 (128x128 tiles).
func.func @fc_engine_tf32_cl300(%x: tensor<8x160x64xf32>, %y: tensor<8x160x64xf32>, %w: tensor<20x64x128xf32>) -> tensor<8x160x128xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x160x64xf32>, tensor<8x160x64xf32>, tensor<20x64x128xf32>) -> tensor<8x160x128xf32>
  return %r : tensor<8x160x128xf32>
}
