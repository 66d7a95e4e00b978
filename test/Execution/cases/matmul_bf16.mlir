func.func @matmul_bf16(%a: tensor<129x257xbf16>, %b: tensor<257x263xbf16>) -> tensor<129x263xbf16> {
  %r = uta.matmul %a, %b : (tensor<129x257xbf16>, tensor<257x263xbf16>) -> tensor<129x263xbf16>
  return %r : tensor<129x263xbf16>
}
