// gpu-check: --sm=90a --uta-gemm-config=tma128x128x64s6
// gpu-check-tolerance: 1e-2
// The TMA schedule in six stages over a long K (64 steps: every stage's
// barriers go through many phases), tails in M and N.
func.func @tma_f16_k4096_s6(%a: tensor<260x4096xf16>, %b: tensor<390x4096xf16>) -> tensor<260x390xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<260x4096xf16>, tensor<390x4096xf16>) -> tensor<260x390xf16>
  return %r : tensor<260x390xf16>
}
