// A weight gradient x^T g over a batch of 8192 (uta-split-k's case).
func.func @weight_gradient(%x: tensor<8192x256xf32>, %g: tensor<8192x512xf32>) -> tensor<256x512xf32> {
  %d = uta.matmul %x, %g {transpose_a = true} : (tensor<8192x256xf32>, tensor<8192x512xf32>) -> tensor<256x512xf32>
  return %d : tensor<256x512xf32>
}
