// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=tma256x128x32f32
// gpu-check-tolerance: 2e-3
// The TMA schedule in plain TF32 with two 64-row slabs per consumer: each
// consumer loads its A fragments from the swizzled stage into registers and
// rounds them, the tensor cores read B truncated. Tails in M (a partial
// second slab), N and K.
func.func @tma_tf32_256x128_tails(%a: tensor<600x104xf32>, %b: tensor<150x104xf32>) -> tensor<600x150xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<600x104xf32>, tensor<150x104xf32>) -> tensor<600x150xf32>
  return %r : tensor<600x150xf32>
}
