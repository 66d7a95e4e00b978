// A contraction over an empty axis: the result (4x8 zeros) is not empty,
// but its kernel would read a buffer of no elements.
func.func @mm(%a: tensor<4x0xf32>, %b: tensor<0x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.matmul %a, %b : (tensor<4x0xf32>, tensor<0x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
