func.func @matmul_tb_f32(%a: tensor<3x129x257xf32>, %b: tensor<263x257xf32>) -> tensor<3x129x263xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<3x129x257xf32>, tensor<263x257xf32>) -> tensor<3x129x263xf32>
  return %r : tensor<3x129x263xf32>
}
