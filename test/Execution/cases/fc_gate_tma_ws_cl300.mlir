// gpu-check: --sm=90a
// fc_product with a gate operand on the warp-specialised TMA schedule in
// 3xTF32, whose steps run slot by slot: the consumers load the gates of
// every step's K tile and scale the sums before splitting them. Tails in
// the batch (260), Fin (100) and Fout (136).
func.func @fc_gate_tma_ws_cl300(%x: tensor<8x260x100xf32>, %y: tensor<8x260x100xf32>, %w: tensor<20x100x136xf32>, %g: tensor<260x100xf32>) -> tensor<8x260x136xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w gate %g : (tensor<8x260x100xf32>, tensor<8x260x100xf32>, tensor<20x100x136xf32>, tensor<260x100xf32>) -> tensor<8x260x136xf32>
  return %r : tensor<8x260x136xf32>
}
