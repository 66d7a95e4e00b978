// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// fc_product on the warp-specialised TMA schedule in plain TF32, in the
// degenerate Cl(3,0,1) (16 blades, 34 paths): products with the null
// basis vector vanish, so a slot's missing terms (sign 0) sit anywhere
// among its terms, not only at its end, and the consumers' term loop
// passes over them between present ones. Tails in the batch (130), Fin
// (36: the last K tile of 4 columns) and Fout (200).
func.func @fc_tma_ws_tf32_cl301(%x: tensor<16x130x36xf32>, %y: tensor<16x130x36xf32>, %w: tensor<34x36x200xf32>) -> tensor<16x130x200xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x130x36xf32>, tensor<16x130x36xf32>, tensor<34x36x200xf32>) -> tensor<16x130x200xf32>
  return %r : tensor<16x130x200xf32>
}
