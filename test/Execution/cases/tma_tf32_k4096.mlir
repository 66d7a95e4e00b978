// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=tma128x128x32f32
// gpu-check-tolerance: 2e-3
// The TMA schedule in plain TF32 over a long K (128 steps, 64 iterations of
// two on alternating A registers), tails in M and N.
func.func @tma_tf32_k4096(%a: tensor<200x4096xf32>, %b: tensor<330x4096xf32>) -> tensor<200x330xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<200x4096xf32>, tensor<330x4096xf32>) -> tensor<200x330xf32>
  return %r : tensor<200x330xf32>
}
