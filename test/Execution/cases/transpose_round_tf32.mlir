// gpu-check-tolerance: 1e-9
// Transposes that round to TF32 (what uta-tensor-core-layouts makes of the
// weights of plain TF32 fc_products): element by element, through 32x32
// tiles with tails (67 x 45), and the weights' [P, Fin, Fout] -> [P, Fout,
// Fin] of a Cl(2,0) product, with an exact producer fused in front (w + w:
// an inexact one, exp, could land an element on the other side of a
// rounding boundary than the reference's, 2^-11 away). The reference
// rounds with APFloat to nearest even; the kernels by bits. Both give TF32
// values, which f32 holds exactly, so they must agree to the bit (the tight
// tolerance): unrounded, truncated or ties-away results would differ by up to
// 2^-11 relative.
func.func @transpose_round_tf32(%a: tensor<3x5xf32>, %b: tensor<67x45xf32>,
                                %w: tensor<10x48x40xf32>)
    -> (tensor<5x3xf32>, tensor<45x67xf32>, tensor<10x40x48xf32>) {
  %ta = uta.transpose %a [1, 0] {round_to_tf32} : tensor<3x5xf32> -> tensor<5x3xf32>
  %tb = uta.transpose %b [1, 0] {round_to_tf32} : tensor<67x45xf32> -> tensor<45x67xf32>
  %e = uta.add %w, %w : (tensor<10x48x40xf32>, tensor<10x48x40xf32>) -> tensor<10x48x40xf32>
  %tw = uta.transpose %e [0, 2, 1] {round_to_tf32} : tensor<10x48x40xf32> -> tensor<10x40x48xf32>
  return %ta, %tb, %tw : tensor<5x3xf32>, tensor<45x67xf32>, tensor<10x40x48xf32>
}
