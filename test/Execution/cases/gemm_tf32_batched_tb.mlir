// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// GEMM engine in plain TF32, batched with a broadcast B, B transposed, K = 8192.
func.func @gemm_tf32_batched_tb(%a: tensor<2x30x8192xf32>, %b: tensor<50x8192xf32>) -> tensor<2x30x50xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<2x30x8192xf32>, tensor<50x8192xf32>) -> tensor<2x30x50xf32>
  return %r : tensor<2x30x50xf32>
}
