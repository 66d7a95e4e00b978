// fc_product on the GEMM engine with one input feature (K = 1, rows of 4
// bytes: copied by element) and 130 batch rows.
func.func @fc_engine_k1_cl200(%x: tensor<4x130x1xf32>, %y: tensor<4x130x1xf32>, %w: tensor<10x1x24xf32>) -> tensor<4x130x24xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x130x1xf32>, tensor<4x130x1xf32>, tensor<10x1x24xf32>) -> tensor<4x130x24xf32>
  return %r : tensor<4x130x24xf32>
}
