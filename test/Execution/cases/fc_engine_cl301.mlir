// fc_product on the GEMM engine in a degenerate algebra (PGA, Cl(3,0,1):
// terms through e0 vanish) with aligned rows.
func.func @fc_engine_cl301(%x: tensor<16x64x32xf32>, %y: tensor<16x64x32xf32>, %w: tensor<34x32x48xf32>) -> tensor<16x64x48xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x64x32xf32>, tensor<16x64x32xf32>, tensor<34x32x48xf32>) -> tensor<16x64x48xf32>
  return %r : tensor<16x64x48xf32>
}
