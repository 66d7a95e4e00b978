// x + transpose(x): x is read 4 elements at a time along its rows and one
// at a time down its columns in the same kernel (on SPIR-V both through one
// vec4 view of x, the scalars as components of it).
func.func @vec_mixed_transpose_f32(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = uta.transpose %x [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  %0 = uta.add %x, %t : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
