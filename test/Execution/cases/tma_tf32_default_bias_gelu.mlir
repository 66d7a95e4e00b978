// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 4e-3
// Plain TF32 takes the TMA schedule by default where its 128x256 tile gives
// every SM a block (9 x 16 tiles here): A rounded in registers, B read
// truncated, bias and gelu fused on the accumulators. Tails in M, N and K.
// The tolerance: over 4.4 million outputs the worst element of exact TF32
// rounding (inputs rounded to nearest, sums in float64) reaches 2.6e-3 to
// 3.1e-3 of the reference's RMS at K = 72 (three seeds; 2.2e-3 to 2.5e-3 at
// K = 200), past the 2e-3 of smaller TF32 cases. With B truncated its
// norm-wise error is 4.6e-4 (2.9e-4 with both operands rounded), its worst
// element 2.5e-3 (H100, seed 1).
func.func @tma_tf32_default_bias_gelu(%x: tensor<1100x72xf32>, %w: tensor<4000x72xf32>, %b: tensor<4000xf32>) -> tensor<1100x4000xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<1100x72xf32>, tensor<4000x72xf32>) -> tensor<1100x4000xf32>
  %1 = uta.add %0, %b : (tensor<1100x4000xf32>, tensor<4000xf32>) -> tensor<1100x4000xf32>
  %2 = uta.gelu %1 : tensor<1100x4000xf32>
  return %2 : tensor<1100x4000xf32>
}
