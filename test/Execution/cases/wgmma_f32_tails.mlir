// gpu-check: --sm=90a
// wgmma schedule (sm_90a), 3xTF32 (f32 accuracy): tails in M, N and K.
func.func @wgmma_f32_tails(%a: tensor<129x260xf32>, %b: tensor<263x260xf32>) -> tensor<129x263xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<129x260xf32>, tensor<263x260xf32>) -> tensor<129x263xf32>
  return %r : tensor<129x263xf32>
}
