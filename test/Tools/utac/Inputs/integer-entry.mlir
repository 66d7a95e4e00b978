// An entry that takes and returns an integer tensor, which no target stores.
func.func @two(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  return %x, %i : tensor<4xf32>, tensor<4xi32>
}
