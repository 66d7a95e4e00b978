// gpu-check-grad: vjp
// The gradient of an f16 matmul with transpose_b and broadcast batch axes.
func.func @matmul_f16_tb(%a: tensor<2x1x24x40xf16>, %b: tensor<3x17x40xf16>) -> tensor<2x3x24x17xf16> {
  %c = uta.matmul %a, %b {transpose_b = true} : (tensor<2x1x24x40xf16>, tensor<3x17x40xf16>) -> tensor<2x3x24x17xf16>
  return %c : tensor<2x3x24x17xf16>
}
