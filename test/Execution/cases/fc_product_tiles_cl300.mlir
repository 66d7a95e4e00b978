// Partial tiles: 37 rows of 32-row tiles, 40 outputs of a 64-output tile,
// 13 input features in chunks of 4 (passes/Analysis/FcProductTiling.h).
func.func @fc_product_tiles_cl300(%x: tensor<8x37x13xf32>, %y: tensor<8x37x13xf32>, %w: tensor<20x13x40xf32>) -> tensor<8x37x40xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x37x13xf32>, tensor<8x37x13xf32>, tensor<20x13x40xf32>) -> tensor<8x37x40xf32>
  return %r : tensor<8x37x40xf32>
}
