// gelu(x W^T + b) at (M, K, N) = (512, 768, 3072), f32.
func.func @linear_bias_gelu(%x: tensor<512x768xf32>, %w: tensor<3072x768xf32>,
                            %b: tensor<3072xf32>) -> tensor<512x3072xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true}
      : (tensor<512x768xf32>, tensor<3072x768xf32>) -> tensor<512x3072xf32>
  %1 = uta.add %0, %b : (tensor<512x3072xf32>, tensor<3072xf32>) -> tensor<512x3072xf32>
  %2 = uta.gelu %1 : tensor<512x3072xf32>
  return %2 : tensor<512x3072xf32>
}
