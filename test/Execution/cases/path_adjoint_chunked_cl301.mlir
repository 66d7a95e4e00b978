// path_adjoint in the degenerate Cl(3,0,1) (34 paths), one chunk holding the
// whole batch of 19.
func.func @path_adjoint_chunked_cl301(%g: tensor<16x19x13xf32>, %x: tensor<16x19x13xf32>, %y: tensor<16x19x13xf32>) -> tensor<34x1x13xf32> {
  %r = clifford.path_adjoint <3, 0, 1> %g, %x, %y {batch_chunk = 64} : (tensor<16x19x13xf32>, tensor<16x19x13xf32>, tensor<16x19x13xf32>) -> tensor<34x1x13xf32>
  return %r : tensor<34x1x13xf32>
}
