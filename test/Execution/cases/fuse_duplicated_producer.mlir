// A cheap producer with three consumers, one of them a clifford op that
// broadcasts nothing: duplicated into each consumer's kernel.
func.func @fuse_duplicated_producer(%a: tensor<8x1027xf32>, %b: tensor<8x1027xf32>) -> (tensor<8x1027xf32>, tensor<8x1027xf32>, tensor<8x1027xf32>) {
  %e = uta.exp %a : tensor<8x1027xf32>
  %1 = uta.add %e, %b : (tensor<8x1027xf32>, tensor<8x1027xf32>) -> tensor<8x1027xf32>
  %2 = uta.mul %e, %e : (tensor<8x1027xf32>, tensor<8x1027xf32>) -> tensor<8x1027xf32>
  %3 = clifford.reverse <3, 0, 0> %e : tensor<8x1027xf32>
  return %1, %2, %3 : tensor<8x1027xf32>, tensor<8x1027xf32>, tensor<8x1027xf32>
}
