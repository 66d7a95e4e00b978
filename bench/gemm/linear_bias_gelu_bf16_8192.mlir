// gelu(x W^T + b) at (M, K, N) = (8192, 4096, 4096), bf16: a linear layer
// of a large model, one kernel (the GEMM with its epilogue).
func.func @linear_bias_gelu_bf16_8192(%x: tensor<8192x4096xbf16>, %w: tensor<4096x4096xbf16>,
                                      %b: tensor<4096xbf16>) -> tensor<8192x4096xbf16> {
  %0 = uta.matmul %x, %w {transpose_b = true}
      : (tensor<8192x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<8192x4096xbf16>
  %1 = uta.add %0, %b : (tensor<8192x4096xbf16>, tensor<4096xbf16>) -> tensor<8192x4096xbf16>
  %2 = uta.gelu %1 : tensor<8192x4096xbf16>
  return %2 : tensor<8192x4096xbf16>
}
