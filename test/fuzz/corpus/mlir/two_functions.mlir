// One public entry and a private helper, and two results.
func.func private @helper(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = uta.relu %a : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %m = uta.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = uta.reduce_sum %m dims [1] : tensor<4x4xf32> -> tensor<4xf32>
  return %m, %s : tensor<4x4xf32>, tensor<4xf32>
}
