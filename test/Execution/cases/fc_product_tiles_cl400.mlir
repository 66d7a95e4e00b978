// Cl(4,0): a stage of exactly 32 KiB (8 rows x 128 slots x 8 features),
// 7 row tiles, 21 input features in 2 chunks and a tail of 5.
func.func @fc_product_tiles_cl400(%x: tensor<16x50x21xf32>, %y: tensor<16x50x21xf32>, %w: tensor<35x21x70xf32>) -> tensor<16x50x70xf32> {
  %r = clifford.fc_product <4, 0, 0> %x, %y, %w : (tensor<16x50x21xf32>, tensor<16x50x21xf32>, tensor<35x21x70xf32>) -> tensor<16x50x70xf32>
  return %r : tensor<16x50x70xf32>
}
