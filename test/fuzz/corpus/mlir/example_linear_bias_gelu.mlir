// y = gelu(x W^T + b): a linear layer with its bias and activation.
func.func @linear_bias_gelu(%x: tensor<509x768xf32>, %w: tensor<1027x768xf32>,
                            %b: tensor<1027xf32>) -> tensor<509x1027xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true}
      : (tensor<509x768xf32>, tensor<1027x768xf32>) -> tensor<509x1027xf32>
  %1 = uta.add %0, %b : (tensor<509x1027xf32>, tensor<1027xf32>) -> tensor<509x1027xf32>
  %2 = uta.gelu %1 : tensor<509x1027xf32>
  return %2 : tensor<509x1027xf32>
}
