// Cl(6,0): 928 slots per (row, feature), so blocks of 2 rows x 4 outputs.
func.func @fc_product_tiles_cl600(%x: tensor<64x5x7xf32>, %y: tensor<64x5x7xf32>, %w: tensor<84x7x3xf32>) -> tensor<64x5x3xf32> {
  %r = clifford.fc_product <6, 0, 0> %x, %y, %w : (tensor<64x5x7xf32>, tensor<64x5x7xf32>, tensor<84x7x3xf32>) -> tensor<64x5x3xf32>
  return %r : tensor<64x5x3xf32>
}
