// A transpose into rows of 1024: its stores are vectorized, its reads (down a
// column of x) stay scalar.
func.func @vec_transpose_f32(%x: tensor<1024x36xf32>) -> tensor<36x1024xf32> {
  %r = uta.transpose %x [1, 0] : tensor<1024x36xf32> -> tensor<36x1024xf32>
  return %r : tensor<36x1024xf32>
}
