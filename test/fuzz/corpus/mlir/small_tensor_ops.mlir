// Small tensor ops of every family, so that the reference runs them.
func.func @small_tensor(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>, %w: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<4x3xbf16>) {
  %m = uta.matmul %a, %b : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  %l = uta.layer_norm %m, %w, %w axis 1 : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %s = uta.softmax %l dim 0 : tensor<3x4xf32>
  %r = uta.reduce_max %s dims [1] {keep_dims = true} : tensor<3x4xf32> -> tensor<3x1xf32>
  %d = uta.div %s, %r : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %t = uta.transpose %d [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  %c = uta.cast %t : tensor<4x3xf32> -> tensor<4x3xbf16>
  return %d, %c : tensor<3x4xf32>, tensor<4x3xbf16>
}
