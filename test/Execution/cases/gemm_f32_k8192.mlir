// GEMM engine: a long K (256 pipeline steps of 3xTF32), tails in M and N.
func.func @gemm_f32_k8192(%a: tensor<33x8192xf32>, %b: tensor<65x8192xf32>) -> tensor<33x65xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<33x8192xf32>, tensor<65x8192xf32>) -> tensor<33x65xf32>
  return %r : tensor<33x65xf32>
}
