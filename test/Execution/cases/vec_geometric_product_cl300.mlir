// Cl(3,0) products over [8, B, F] with F = 132 a multiple of 4: each thread
// computes 4 consecutive features, every blade one vector load or store.
func.func @vec_geometric_product_cl300(%x: tensor<8x37x132xf32>, %y: tensor<8x37x132xf32>) -> tensor<8x37x132xf32> {
  %r = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x37x132xf32>, tensor<8x37x132xf32>) -> tensor<8x37x132xf32>
  return %r : tensor<8x37x132xf32>
}
