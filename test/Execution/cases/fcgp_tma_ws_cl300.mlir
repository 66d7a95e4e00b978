// gpu-check: --sm=90a
// The FCGP layer with fc_product on the warp-specialised TMA schedule
// (3xTF32): both gates folded into one pair_gate kernel over x and the
// weights' transpose are kernels of their own; the norm is applied by
// fc_product's kernel (its blocks exchange their rows' sums of squares).
func.func @fcgp_tma_ws_cl300(%x: tensor<8x256x128xf32>, %y: tensor<8x256x128xf32>, %w: tensor<20x128x128xf32>) -> tensor<8x256x128xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x256x128xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x256x128xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x256x128xf32>, tensor<8x256x128xf32>, tensor<20x128x128xf32>) -> tensor<8x256x128xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x256x128xf32>
  return %n : tensor<8x256x128xf32>
}
