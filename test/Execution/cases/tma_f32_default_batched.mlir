// gpu-check: --sm=90a
// The heuristic's 3xTF32 schedule where the large tile fills the GPU (9 x 9
// tiles x 2 batch elements = 162 blocks): the warp-specialised TMA
// schedule, batched ([2] with a broadcast B), tails in M, N and K (K = 260:
// eight full K tiles and a partial one).
func.func @tma_f32_default_batched(%a: tensor<2x1100x260xf32>, %b: tensor<1030x260xf32>) -> tensor<2x1100x1030xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<2x1100x260xf32>, tensor<1030x260xf32>) -> tensor<2x1100x1030xf32>
  return %r : tensor<2x1100x1030xf32>
}
