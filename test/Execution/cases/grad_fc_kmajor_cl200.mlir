// gpu-check-grad: vjp
// The gradient of fc_product with K-major weights ([P, Fout, Fin]): the
// weights' gradient comes back in their layout.
func.func @fc_kmajor_cl200(%x: tensor<4x9x12xf32>, %y: tensor<4x9x12xf32>,
                           %w: tensor<10x7x12xf32>) -> tensor<4x9x7xf32> {
  %z = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true}
      : (tensor<4x9x12xf32>, tensor<4x9x12xf32>, tensor<10x7x12xf32>) -> tensor<4x9x7xf32>
  return %z : tensor<4x9x7xf32>
}
