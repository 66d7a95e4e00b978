// gpu-check-grad: vjp
// The gradient of the FCGP layer in Cl(3,0): its pair products and weight
// gradient are matrix products (the GEMM engine on PTX).
func.func @fcgp_cl3(%x: tensor<8x40x24xf32>, %y: tensor<8x40x24xf32>,
                    %w: tensor<20x24x20xf32>) -> tensor<8x40x20xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x40x24xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x40x24xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x40x24xf32>, tensor<8x40x24xf32>, tensor<20x24x20xf32>) -> tensor<8x40x20xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x40x20xf32>
  return %n : tensor<8x40x20xf32>
}
