func.func @matmul_f32(%a: tensor<129x257xf32>, %b: tensor<257x263xf32>) -> tensor<129x263xf32> {
  %r = uta.matmul %a, %b : (tensor<129x257xf32>, tensor<257x263xf32>) -> tensor<129x263xf32>
  return %r : tensor<129x263xf32>
}
