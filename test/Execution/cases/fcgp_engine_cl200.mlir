// The FCGP layer with fc_product on the GEMM engine: both gates folded into
// one pair_gate kernel over x, the norm a kernel of its own.
func.func @fcgp_engine_cl200(%x: tensor<4x256x128xf32>, %y: tensor<4x256x128xf32>, %w: tensor<10x128x128xf32>) -> tensor<4x256x128xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x256x128xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x256x128xf32>
  %p = clifford.fc_product <2, 0, 0> %gx, %gy, %w : (tensor<4x256x128xf32>, tensor<4x256x128xf32>, tensor<10x128x128xf32>) -> tensor<4x256x128xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x256x128xf32>
  return %n : tensor<4x256x128xf32>
}
