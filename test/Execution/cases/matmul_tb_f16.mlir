func.func @matmul_tb_f16(%a: tensor<3x129x257xf16>, %b: tensor<263x257xf16>) -> tensor<3x129x263xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<3x129x257xf16>, tensor<263x257xf16>) -> tensor<3x129x263xf16>
  return %r : tensor<3x129x263xf16>
}
