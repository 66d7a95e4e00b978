// GEMM engine: enough 128x128 tiles to fill an H100 (the large mma.sync
// tile), with a tail in every extent.
func.func @gemm_f32_large_tiles(%a: tensor<1540x72xf32>, %b: tensor<72x1500xf32>) -> tensor<1540x1500xf32> {
  %r = uta.matmul %a, %b : (tensor<1540x72xf32>, tensor<72x1500xf32>) -> tensor<1540x1500xf32>
  return %r : tensor<1540x1500xf32>
}
