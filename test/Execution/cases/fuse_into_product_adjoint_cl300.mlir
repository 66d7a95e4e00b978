// Producers recomputed inside product_adjoint's kernel: a pointwise uta op
// computing the one-blade cotangent of a scalar product (read at blade 0
// only), and a clifford op computing the other operand a multivector at a
// time.
func.func @fuse_into_product_adjoint_cl300(%s: tensor<1x19x67xf32>, %y: tensor<8x19x1xf32>) -> tensor<8x19x67xf32> {
  %g = uta.tanh %s : tensor<1x19x67xf32>
  %r = clifford.reverse <3, 0, 0> %y : tensor<8x19x1xf32>
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %r : (tensor<1x19x67xf32>, tensor<8x19x1xf32>) -> tensor<8x19x67xf32>
  return %dx : tensor<8x19x67xf32>
}
