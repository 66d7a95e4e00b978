// One computed value returned twice, an argument and a constant returned
// as results (test/Runtime/results-aliased.test).
func.func @results_aliased(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %c = arith.constant dense<[0.5, -1.0, 2.0, 3.0]> : tensor<4xf32>
  %0 = uta.gelu %x : tensor<4x8xf32>
  return %0, %x, %0, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}
