// pair_gate_factor on its own: Phi(x_0) Phi(y_0) for each (batch element,
// feature), 4 consecutive features per thread (vector loads of the scalar
// blades), and a tail of features (the last 2 of 130 alone).
func.func @pair_gate_factor_cl300(%x: tensor<8x33x130xf32>, %y: tensor<8x33x130xf32>) -> tensor<33x130xf32> {
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %y : (tensor<8x33x130xf32>, tensor<8x33x130xf32>) -> tensor<33x130xf32>
  return %g : tensor<33x130xf32>
}
