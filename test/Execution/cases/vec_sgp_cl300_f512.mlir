// The SGP layer in Cl(3,0) at the benchmark's feature count, F = 512: one
// block of 128 threads per batch element, 4 features per thread held in
// registers between the grade norm's two passes.
func.func @vec_sgp_cl300_f512(%x: tensor<8x61x512xf32>, %y: tensor<8x61x512xf32>,
                              %w: tensor<512x20xf32>) -> tensor<8x61x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x61x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x61x512xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x61x512xf32>, tensor<8x61x512xf32>, tensor<512x20xf32>) -> tensor<8x61x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x61x512xf32>
  return %n : tensor<8x61x512xf32>
}
