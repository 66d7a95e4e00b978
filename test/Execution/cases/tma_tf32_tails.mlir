// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=tma128x256x32f32
// gpu-check-tolerance: 2e-3
// The TMA schedule in plain TF32 (A rounded in the consumers' registers, B
// truncated by the tensor cores, a group in flight): tails in M, N and K
// (K = 200: six full K tiles and a partial one, an odd count of steps).
func.func @tma_tf32_tails(%a: tensor<300x200xf32>, %b: tensor<260x200xf32>) -> tensor<300x260xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<300x200xf32>, tensor<260x200xf32>) -> tensor<300x260xf32>
  return %r : tensor<300x260xf32>
}
