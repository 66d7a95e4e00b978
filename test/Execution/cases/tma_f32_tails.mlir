// gpu-check: --sm=90a --uta-gemm-config=tma128x128x32x3
// The TMA schedule in 3xTF32 (f32 accuracy: the producer warpgroup splits
// each landed stage into the high parts and their remainders): tails in M,
// N and K.
func.func @tma_f32_tails(%a: tensor<300x200xf32>, %b: tensor<260x200xf32>) -> tensor<300x260xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<300x200xf32>, tensor<260x200xf32>) -> tensor<300x260xf32>
  return %r : tensor<300x260xf32>
}
