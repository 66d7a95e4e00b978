// Rows of 1027: the flattened x is read 4 elements at a time across row
// ends (37999 = 4 * 9499 + 3: a tail of 3); the row vector r [1027] cannot
// be (its 4 elements may wrap around), so each lane loads its own.
func.func @vec_odd_rows_f32(%x: tensor<37x1027xf32>, %r: tensor<1027xf32>) -> tensor<37x1027xf32> {
  %0 = uta.max %x, %r : (tensor<37x1027xf32>, tensor<1027xf32>) -> tensor<37x1027xf32>
  %1 = uta.exp %0 : tensor<37x1027xf32>
  return %1 : tensor<37x1027xf32>
}
