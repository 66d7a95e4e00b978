// gpu-check: --sm=90a --allow-tf32 --uta-gemm-config=fcwgmma128x256x16s4
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores: worst elements
// near 2.2e-3 among this many outputs, rel_l2 4.7e-4.)
// fc_product on wgmma in plain TF32 with x and y tiles copied by TMA, in
// the degenerate Cl(3,0,1) (16 blades, 34 paths), on the four-stage row
// (copies three steps ahead, each stage's mbarrier in its second phase
// and later): four column tiles (Fout 1000, the last with 232 columns),
// Fin 36 (the last K tile holds 4 columns, the rest of its boxes zeros),
// the batch 130 (the last row tile holds 2 rows).
func.func @wgmma_fc_tma_tf32_cl301(%x: tensor<16x130x36xf32>, %y: tensor<16x130x36xf32>, %w: tensor<34x36x1000xf32>) -> tensor<16x130x1000xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x130x36xf32>, tensor<16x130x36xf32>, tensor<34x36x1000xf32>) -> tensor<16x130x1000xf32>
  return %r : tensor<16x130x1000xf32>
}
