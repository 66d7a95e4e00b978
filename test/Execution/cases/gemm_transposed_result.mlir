// A consumer that reads the matmul at other indices (transpose) is not its
// epilogue: two kernels, both correct.
func.func @gemm_transposed_result(%a: tensor<40x24xf32>, %b: tensor<24x56xf32>) -> tensor<56x40xf32> {
  %0 = uta.matmul %a, %b : (tensor<40x24xf32>, tensor<24x56xf32>) -> tensor<40x56xf32>
  %1 = uta.gelu %0 : tensor<40x56xf32>
  %2 = uta.transpose %1 [1, 0] : tensor<40x56xf32> -> tensor<56x40xf32>
  return %2 : tensor<56x40xf32>
}
