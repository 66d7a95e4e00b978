// gpu-check: --sm=90a
// wgmma schedule (sm_90a), 3xTF32: K = 4, the shortest K whose rows are
// 16-byte aligned (one partial K tile).
func.func @wgmma_f32_k4(%a: tensor<65x4xf32>, %b: tensor<130x4xf32>) -> tensor<65x130xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<65x4xf32>, tensor<130x4xf32>) -> tensor<65x130xf32>
  return %r : tensor<65x130xf32>
}
