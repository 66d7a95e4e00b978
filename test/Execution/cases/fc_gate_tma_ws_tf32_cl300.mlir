// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// (TF32 with the weights truncated by the tensor cores.)
// fc_product with a gate operand on the warp-specialised TMA schedule in
// plain TF32: each consumer loads its gates once per K tile (the steps run
// K tile by K tile) and scales the summed pair products by them before
// rounding. Tails in the batch (260), Fin (100: TMA fills the last K
// tile's gates past column 99 with zeros) and Fout (136). The gate is an
// argument of its own, so its values are seeded like x and y (negative
// ones too), not only Phi(x_0) Phi(y_0).
func.func @fc_gate_tma_ws_tf32_cl300(%x: tensor<8x260x100xf32>, %y: tensor<8x260x100xf32>, %w: tensor<20x100x136xf32>, %g: tensor<260x100xf32>) -> tensor<8x260x136xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w gate %g : (tensor<8x260x100xf32>, tensor<8x260x100xf32>, tensor<20x100x136xf32>, tensor<260x100xf32>) -> tensor<8x260x136xf32>
  return %r : tensor<8x260x136xf32>
}
