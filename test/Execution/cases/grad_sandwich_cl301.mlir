// gpu-check-grad: vjp
// The gradient of a sandwich in Cl(3,0,1) with one rotor for a batch: the
// rotor's gradient sums over the batch.
func.func @sandwich_cl301(%r: tensor<16x1xf32>, %x: tensor<16x700xf32>) -> tensor<16x700xf32> {
  %y = clifford.sandwich <3, 0, 1> %r, %x : (tensor<16x1xf32>, tensor<16x700xf32>) -> tensor<16x700xf32>
  return %y : tensor<16x700xf32>
}
