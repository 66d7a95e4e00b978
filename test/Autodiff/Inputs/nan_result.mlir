// Two results, one of them NaN at the seeded inputs (log of a normal
// sample, half of it negative): test/Autodiff/check-grad-non-finite-result.test.
func.func @nan_result(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = uta.tanh %x : tensor<16xf32>
  %1 = uta.mul %0, %x : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = uta.log %y : tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}
