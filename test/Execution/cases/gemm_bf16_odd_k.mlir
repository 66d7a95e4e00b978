// GEMM engine: K = 17 and N = 33: rows not 16-byte aligned, copied element
// by element.
func.func @gemm_bf16_odd_k(%a: tensor<65x17xbf16>, %b: tensor<17x33xbf16>) -> tensor<65x33xbf16> {
  %r = uta.matmul %a, %b : (tensor<65x17xbf16>, tensor<17x33xbf16>) -> tensor<65x33xbf16>
  return %r : tensor<65x33xbf16>
}
