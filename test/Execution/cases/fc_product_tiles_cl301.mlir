// Cl(3,0,1): one block of 32 threads, 16 rows x 8 outputs for 9 x 6.
func.func @fc_product_tiles_cl301(%x: tensor<16x9x13xf32>, %y: tensor<16x9x13xf32>, %w: tensor<34x13x6xf32>) -> tensor<16x9x6xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<34x13x6xf32>) -> tensor<16x9x6xf32>
  return %r : tensor<16x9x6xf32>
}
