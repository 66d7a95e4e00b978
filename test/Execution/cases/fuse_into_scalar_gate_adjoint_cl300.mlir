// The backward of the SGP layer's lhs gate: the cotangent of the gate is
// weighted_product's adjoint against the rhs gate, and the whole chain is
// one kernel (the rhs gate recomputed inside the adjoint, the adjoint
// inside the gate's adjoint).
func.func @fuse_into_scalar_gate_adjoint_cl300(%c: tensor<8x19x67xf32>, %x: tensor<8x19x67xf32>, %y: tensor<8x19x67xf32>, %w: tensor<67x20xf32>) -> tensor<8x19x67xf32> {
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x19x67xf32>
  %g = clifford.weighted_product_adjoint <3, 0, 0> lhs %c, %gy, %w : (tensor<8x19x67xf32>, tensor<8x19x67xf32>, tensor<67x20xf32>) -> tensor<8x19x67xf32>
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x19x67xf32>
  return %dx : tensor<8x19x67xf32>
}
