// The FCGP layer in Cl(2,0) at [blades, B, F] = [4, 4096, 512] -> 512, f32.
func.func @fcgp_cl2(%x: tensor<4x4096x512xf32>, %y: tensor<4x4096x512xf32>,
                    %w: tensor<10x512x512xf32>) -> tensor<4x4096x512xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x4096x512xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x4096x512xf32>
  %p = clifford.fc_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x4096x512xf32>, tensor<4x4096x512xf32>, tensor<10x512x512xf32>) -> tensor<4x4096x512xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x4096x512xf32>
  return %n : tensor<4x4096x512xf32>
}
