// gpu-check-grad: vjp
// The gradient of fc_product in the degenerate Cl(3,0,1).
func.func @fc_product_cl301(%x: tensor<16x9x12xf32>, %y: tensor<16x9x12xf32>,
                            %w: tensor<34x12x7xf32>) -> tensor<16x9x7xf32> {
  %z = clifford.fc_product <3, 0, 1> %x, %y, %w
      : (tensor<16x9x12xf32>, tensor<16x9x12xf32>, tensor<34x12x7xf32>) -> tensor<16x9x7xf32>
  return %z : tensor<16x9x7xf32>
}
