// A gate read as both operands of a product: one kernel that computes it
// once per operand.
func.func @fuse_gate_read_twice(%x: tensor<16x515xf32>) -> tensor<16x515xf32> {
  %g = clifford.scalar_gate <4, 0, 0> %x : tensor<16x515xf32>
  %z = clifford.geometric_product <4, 0, 0> %g, %g : (tensor<16x515xf32>, tensor<16x515xf32>) -> tensor<16x515xf32>
  return %z : tensor<16x515xf32>
}
