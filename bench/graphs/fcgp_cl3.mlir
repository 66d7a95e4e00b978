// The FCGP layer in Cl(3,0) at [blades, B, F] = [8, 4096, 512] -> 512, f32.
func.func @fcgp_cl3(%x: tensor<8x4096x512xf32>, %y: tensor<8x4096x512xf32>,
                    %w: tensor<20x512x512xf32>) -> tensor<8x4096x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x512xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x512xf32>, tensor<8x4096x512xf32>, tensor<20x512x512xf32>) -> tensor<8x4096x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x512xf32>
  return %n : tensor<8x4096x512xf32>
}
