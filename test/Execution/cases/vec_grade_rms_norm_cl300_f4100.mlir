// grade_rms_norm in Cl(3,0) with F = 4100: 1025 chunks of 4 features over
// 256 threads (5 rounds, 160 values: too many to hold), so the second pass
// reads x again; the last round has a single chunk.
func.func @vec_grade_rms_norm_cl300_f4100(%x: tensor<8x7x4100xf32>) -> tensor<8x7x4100xf32> {
  %r = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x7x4100xf32>
  return %r : tensor<8x7x4100xf32>
}
