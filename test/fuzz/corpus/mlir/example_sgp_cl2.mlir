// The Flash Clifford SGP layer in Cl(2,0), layout [blades, batch, features]:
// grade_rms_norm(weighted_product(scalar_gate(x), scalar_gate(y), w)).
func.func @sgp_cl2(%x: tensor<4x1000x61xf32>, %y: tensor<4x1000x61xf32>,
                   %w: tensor<61x10xf32>) -> tensor<4x1000x61xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x1000x61xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x1000x61xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x1000x61xf32>, tensor<4x1000x61xf32>, tensor<61x10xf32>) -> tensor<4x1000x61xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x1000x61xf32>
  return %n : tensor<4x1000x61xf32>
}
