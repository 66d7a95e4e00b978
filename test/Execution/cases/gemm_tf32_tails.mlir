// gpu-check: --allow-tf32
// gpu-check-tolerance: 2e-3
// GEMM engine in plain TF32 (--allow-tf32): tails in M, N and K.
func.func @gemm_tf32_tails(%a: tensor<129x257xf32>, %b: tensor<257x263xf32>) -> tensor<129x263xf32> {
  %r = uta.matmul %a, %b : (tensor<129x257xf32>, tensor<257x263xf32>) -> tensor<129x263xf32>
  return %r : tensor<129x263xf32>
}
