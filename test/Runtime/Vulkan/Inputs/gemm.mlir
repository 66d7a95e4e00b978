// A 96 x 80 x 40 f32 GEMM: the SIMT schedule on SPIR-V.
func.func @main(%a: tensor<96x40xf32>, %b: tensor<40x80xf32>) -> tensor<96x80xf32> {
  %0 = uta.matmul %a, %b : (tensor<96x40xf32>, tensor<40x80xf32>) -> tensor<96x80xf32>
  return %0 : tensor<96x80xf32>
}
