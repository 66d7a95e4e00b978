// Blades last ([B, F, 8]): a thread's multivector is 8 contiguous floats,
// read and written as two 128-bit vectors.
func.func @vec_blades_last_cl300(%x: tensor<37x29x8xf32>, %y: tensor<37x29x8xf32>) -> tensor<37x29x8xf32> {
  %r = clifford.geometric_product <3, 0, 0> %x, %y {blade_axis = 2} : (tensor<37x29x8xf32>, tensor<37x29x8xf32>) -> tensor<37x29x8xf32>
  return %r : tensor<37x29x8xf32>
}
