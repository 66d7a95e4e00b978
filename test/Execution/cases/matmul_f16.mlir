func.func @matmul_f16(%a: tensor<129x257xf16>, %b: tensor<257x263xf16>) -> tensor<129x263xf16> {
  %r = uta.matmul %a, %b : (tensor<129x257xf16>, tensor<257x263xf16>) -> tensor<129x263xf16>
  return %r : tensor<129x263xf16>
}
