// A motor acting on a batch of points in projective geometric algebra
// Cl(3,0,1): y = m x reverse(m), one motor broadcast over the batch.
func.func @sandwich_pga(%motor: tensor<16x1xf32>, %x: tensor<16x4099xf32>) -> tensor<16x4099xf32> {
  %y = clifford.sandwich <3, 0, 1> %motor, %x : (tensor<16x1xf32>, tensor<16x4099xf32>) -> tensor<16x4099xf32>
  return %y : tensor<16x4099xf32>
}
