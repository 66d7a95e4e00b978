// GEMM engine: f16, batched with a broadcast B stored [N, K] (transpose_b).
func.func @simt_gemm_batched_tb_f16(%a: tensor<3x45x37xf16>, %b: tensor<1x29x37xf16>) -> tensor<3x45x29xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<3x45x37xf16>, tensor<1x29x37xf16>) -> tensor<3x45x29xf16>
  return %r : tensor<3x45x29xf16>
}
