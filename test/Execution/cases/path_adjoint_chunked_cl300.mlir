// path_adjoint summing runs of 8 batch elements in the kernel: 67 = 8 * 8 + 3,
// so the last chunk has a tail.
func.func @path_adjoint_chunked_cl300(%g: tensor<8x67x31xf32>, %x: tensor<8x67x31xf32>, %y: tensor<8x67x31xf32>) -> tensor<20x9x31xf32> {
  %r = clifford.path_adjoint <3, 0, 0> %g, %x, %y {batch_chunk = 8} : (tensor<8x67x31xf32>, tensor<8x67x31xf32>, tensor<8x67x31xf32>) -> tensor<20x9x31xf32>
  return %r : tensor<20x9x31xf32>
}
