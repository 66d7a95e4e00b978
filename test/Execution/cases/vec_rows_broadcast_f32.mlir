// Rows of 1024 (a multiple of 4): x and the row vector r are read 4 columns
// at a time; the column c [37, 1] is broadcast along the rows, one scalar
// load per thread for its 4 lanes.
func.func @vec_rows_broadcast_f32(%x: tensor<37x1024xf32>, %r: tensor<1024xf32>, %c: tensor<37x1xf32>) -> tensor<37x1024xf32> {
  %0 = uta.mul %x, %r : (tensor<37x1024xf32>, tensor<1024xf32>) -> tensor<37x1024xf32>
  %1 = uta.sub %0, %c : (tensor<37x1024xf32>, tensor<37x1xf32>) -> tensor<37x1024xf32>
  %2 = uta.tanh %1 : tensor<37x1024xf32>
  return %2 : tensor<37x1024xf32>
}
