// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// fc_product on the warp-specialised TMA schedule in plain TF32, in Cl(4,0)
// (16 blades): slots of up to 4 terms, each term one stage of x and y
// tiles, so the term ring wraps inside a step. Tails in the batch (140),
// Fin (68: three K tiles, the last of 4 columns) and Fout (200).
func.func @fc_tma_ws_tf32_cl400(%x: tensor<16x140x68xf32>, %y: tensor<16x140x68xf32>, %w: tensor<35x68x200xf32>) -> tensor<16x140x200xf32> {
  %r = clifford.fc_product <4, 0, 0> %x, %y, %w : (tensor<16x140x68xf32>, tensor<16x140x68xf32>, tensor<35x68x200xf32>) -> tensor<16x140x200xf32>
  return %r : tensor<16x140x200xf32>
}
