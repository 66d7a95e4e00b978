// The path weights' gradient of the SGP layer: both gates are recomputed
// inside path_adjoint's kernel, once per batch element of each thread's run
// of 4 (37 = 9 * 4 + 1, so the last run has one element), one kernel.
func.func @fuse_into_path_adjoint_chunked_cl300(%g: tensor<8x37x29xf32>, %x: tensor<8x37x29xf32>, %y: tensor<8x37x29xf32>) -> tensor<20x10x29xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x37x29xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x37x29xf32>
  %r = clifford.path_adjoint <3, 0, 0> %g, %gx, %gy {batch_chunk = 4} : (tensor<8x37x29xf32>, tensor<8x37x29xf32>, tensor<8x37x29xf32>) -> tensor<20x10x29xf32>
  return %r : tensor<20x10x29xf32>
}
