// A small Flash Clifford layer in Cl(2,0), so that the reference runs it.
func.func @small_weighted(%x: tensor<4x3x7xf32>, %y: tensor<4x3x7xf32>, %w: tensor<7x10xf32>, %f: tensor<10x7x5xf32>) -> tensor<4x3x5xf32> {
  %g = clifford.scalar_gate <2, 0, 0> %x : tensor<4x3x7xf32>
  %p = clifford.weighted_product <2, 0, 0> %g, %y, %w : (tensor<4x3x7xf32>, tensor<4x3x7xf32>, tensor<7x10xf32>) -> tensor<4x3x7xf32>
  %r = clifford.fc_product <2, 0, 0> %p, %y, %f : (tensor<4x3x7xf32>, tensor<4x3x7xf32>, tensor<10x7x5xf32>) -> tensor<4x3x5xf32>
  return %r : tensor<4x3x5xf32>
}
