// gpu-check-grad: vjp
// The gradient of a bf16 matmul with K = 1 (its weight gradient sums over
// M = 129 rows).
func.func @matmul_bf16_k1(%a: tensor<129x1xbf16>, %b: tensor<1x70xbf16>) -> tensor<129x70xbf16> {
  %c = uta.matmul %a, %b : (tensor<129x1xbf16>, tensor<1x70xbf16>) -> tensor<129x70xbf16>
  return %c : tensor<129x70xbf16>
}
