// Flash Clifford's SGP layer in Cl(3,0), B = 256, F = 32 (bench/train/configs.py).
func.func @layer(%x: tensor<8x256x32xf32>, %lw: tensor<8x32x32xf32>, %b: tensor<1x1x32xf32>, %w: tensor<32x20xf32>) -> tensor<8x256x32xf32> {
  %h = uta.matmul %x, %lw : (tensor<8x256x32xf32>, tensor<8x32x32xf32>) -> tensor<8x256x32xf32>
  %y = uta.add %h, %b : (tensor<8x256x32xf32>, tensor<1x1x32xf32>) -> tensor<8x256x32xf32>
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x256x32xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x256x32xf32>
  %z = clifford.weighted_product <3, 0, 0> %gx, %gy, %w : (tensor<8x256x32xf32>, tensor<8x256x32xf32>, tensor<32x20xf32>) -> tensor<8x256x32xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %z : tensor<8x256x32xf32>
  return %n : tensor<8x256x32xf32>
}
