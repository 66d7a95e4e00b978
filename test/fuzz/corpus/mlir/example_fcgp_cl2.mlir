// The Flash Clifford FCGP layer in Cl(2,0): a fully connected geometric
// product, grade_rms_norm(fc_product(scalar_gate(x), scalar_gate(y), w)).
func.func @fcgp_cl2(%x: tensor<4x509x61xf32>, %y: tensor<4x509x61xf32>,
                    %w: tensor<10x61x47xf32>) -> tensor<4x509x47xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x509x61xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x509x61xf32>
  %p = clifford.fc_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x509x61xf32>, tensor<4x509x61xf32>, tensor<10x61x47xf32>) -> tensor<4x509x47xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x509x47xf32>
  return %n : tensor<4x509x47xf32>
}
