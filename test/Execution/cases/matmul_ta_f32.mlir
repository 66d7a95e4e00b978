// A stored [K, M] (transpose_a) under a rank-2 B shared by the batch, with
// M, N and K off every tile: M = 129 floats per row of A are not 16-byte
// aligned, so A is copied by element.
func.func @matmul_ta_f32(%a: tensor<3x257x129xf32>, %b: tensor<257x263xf32>) -> tensor<3x129x263xf32> {
  %r = uta.matmul %a, %b {transpose_a = true} : (tensor<3x257x129xf32>, tensor<257x263xf32>) -> tensor<3x129x263xf32>
  return %r : tensor<3x129x263xf32>
}
