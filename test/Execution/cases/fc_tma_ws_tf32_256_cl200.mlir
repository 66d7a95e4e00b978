// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=fctma128x256x32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// fc_product on the warp-specialised TMA schedule's 256-column row in
// plain TF32: three column tiles (Fout 520, the last with 8 columns), the
// batch 300 (the last row tile holds 44 rows), Fin 40 (two K tiles, the
// second of 8 columns); the staged epilogue writes 4 columns at a time.
func.func @fc_tma_ws_tf32_256_cl200(%x: tensor<4x300x40xf32>, %y: tensor<4x300x40xf32>, %w: tensor<10x40x520xf32>) -> tensor<4x300x520xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x300x40xf32>, tensor<4x300x40xf32>, tensor<10x40x520xf32>) -> tensor<4x300x520xf32>
  return %r : tensor<4x300x520xf32>
}
