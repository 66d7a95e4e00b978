// gpu-check: --sm=90a --uta-gemm-config=tma64x128x32f32
// The TMA schedule in 3xTF32 on one consumer warpgroup, batched ([3] with
// [3]), K = 4 (one partial K tile, the rest of its box zeros).
func.func @tma_f32_k4_batched(%a: tensor<3x100x4xf32>, %b: tensor<3x90x4xf32>) -> tensor<3x100x90xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<3x100x4xf32>, tensor<3x90x4xf32>) -> tensor<3x100x90xf32>
  return %r : tensor<3x100x90xf32>
}
