// fc_product_weight_gradient with the pairs given [2^n, Fin, B]
// (transpose_pairs): the pair products' tiles are read as fc_product reads
// its own (ldmatrix on the GEMM engine); 40 input features and 72 output
// features (partial tiles), K = 200 batch rows per cotangent blade.
func.func @fc_weight_gradient_pairs_cl300(%g: tensor<8x200x72xf32>, %x: tensor<8x40x200xf32>, %y: tensor<8x40x200xf32>) -> tensor<20x40x72xf32> {
  %r = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y {transpose_pairs = true} : (tensor<8x200x72xf32>, tensor<8x40x200xf32>, tensor<8x40x200xf32>) -> tensor<20x40x72xf32>
  return %r : tensor<20x40x72xf32>
}
