// pair_gate alone, in a degenerate algebra (its scalar is blade 0 as in
// any), with the blade axis in the middle and a shape that fills no block.
func.func @pair_gate_cl301(%x: tensor<5x16x37xf32>, %y: tensor<5x16x37xf32>) -> tensor<5x16x37xf32> {
  %z = clifford.pair_gate <3, 0, 1> %x, %y {blade_axis = 1} : tensor<5x16x37xf32>
  return %z : tensor<5x16x37xf32>
}
