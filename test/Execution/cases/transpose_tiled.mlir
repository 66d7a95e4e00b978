// Transposes that move the innermost axis, each the root of its kernel:
// 32x32 tiles through workgroup memory, with tails on both tiled axes (67,
// 45, 40, 70), a batch axis kept, the innermost axis moved to the front,
// a fused producer recomputed at the source indices, and f16.
func.func @transpose_tiled(%a: tensor<67x45xf32>, %b: tensor<3x40x70xf32>,
                           %c: tensor<5x33x48xf32>, %d: tensor<64x96xf16>)
    -> (tensor<45x67xf32>, tensor<3x70x40xf32>, tensor<48x5x33xf32>, tensor<96x64xf16>) {
  %ta = uta.transpose %a [1, 0] : tensor<67x45xf32> -> tensor<45x67xf32>
  %e = uta.exp %b : tensor<3x40x70xf32>
  %tb = uta.transpose %e [0, 2, 1] : tensor<3x40x70xf32> -> tensor<3x70x40xf32>
  %tc = uta.transpose %c [2, 0, 1] : tensor<5x33x48xf32> -> tensor<48x5x33xf32>
  %td = uta.transpose %d [1, 0] : tensor<64x96xf16> -> tensor<96x64xf16>
  return %ta, %tb, %tc, %td : tensor<45x67xf32>, tensor<3x70x40xf32>, tensor<48x5x33xf32>, tensor<96x64xf16>
}
