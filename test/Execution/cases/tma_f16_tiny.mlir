// gpu-check: --sm=90a --uta-gemm-config=tma64x128x64
// The TMA schedule on extents smaller than one box: M = 1, N = 3, K = 8
// (the shortest K whose rows are 16-byte aligned); the boxes' rows and
// columns past the tensors are zeros.
func.func @tma_f16_tiny(%a: tensor<1x8xf16>, %b: tensor<3x8xf16>) -> tensor<1x3xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<1x8xf16>, tensor<3x8xf16>) -> tensor<1x3xf16>
  return %r : tensor<1x3xf16>
}
