// One motor of Cl(3,0,1) applied to 2^20 multivectors: m x reverse(m).
func.func @sandwich_pga(%m: tensor<16x1xf32>, %x: tensor<16x1048576xf32>) -> tensor<16x1048576xf32> {
  %y = clifford.sandwich <3, 0, 1> %m, %x : (tensor<16x1xf32>, tensor<16x1048576xf32>) -> tensor<16x1048576xf32>
  return %y : tensor<16x1048576xf32>
}
