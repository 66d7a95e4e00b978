// gpu-check: --uta-gemm-config=fc128x64x16
// fc_product on the GEMM engine (3xTF32, 128x64 tiles in 3 stages): 16-byte aligned rows (cp.async),
// several K tiles of 16, 200 rows (a partial 128-row tile), 136 outputs
// (a partial 64-column tile).
func.func @fc_engine_cl300(%x: tensor<8x200x96xf32>, %y: tensor<8x200x96xf32>, %w: tensor<20x96x136xf32>) -> tensor<8x200x136xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x200x96xf32>, tensor<8x200x96xf32>, tensor<20x96x136xf32>) -> tensor<8x200x136xf32>
  return %r : tensor<8x200x136xf32>
}
