func.func @matmul_tb_bf16(%a: tensor<3x129x257xbf16>, %b: tensor<263x257xbf16>) -> tensor<3x129x263xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<3x129x257xbf16>, tensor<263x257xbf16>) -> tensor<3x129x263xbf16>
  return %r : tensor<3x129x263xbf16>
}
