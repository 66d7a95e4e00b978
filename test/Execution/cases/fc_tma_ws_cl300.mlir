// gpu-check: --sm=90a
// fc_product on the warp-specialised TMA schedule (fctma128x128x32), 3xTF32:
// the sums of the pair products split in registers, the weights'
// remainders written by the producer's splitting warps. Tails in the batch
// (260: the last row tile holds 4 rows), Fin (100: the last K tile holds 4
// columns, zeros past them) and Fout (136: the second column tile holds 8);
// the scalar blade's slots of 3 terms stream through the term stages whole.
func.func @fc_tma_ws_cl300(%x: tensor<8x260x100xf32>, %y: tensor<8x260x100xf32>, %w: tensor<20x100x136xf32>) -> tensor<8x260x136xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x260x100xf32>, tensor<8x260x100xf32>, tensor<20x100x136xf32>) -> tensor<8x260x136xf32>
  return %r : tensor<8x260x136xf32>
}
