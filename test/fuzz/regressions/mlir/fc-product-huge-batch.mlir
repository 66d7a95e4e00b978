// fc_product over a batch of 2^59 - 1 rows (the most whose f32 bytes fit
// int64 with 2 blades and 1 feature): its plan is worked out with
// overflow-checked arithmetic (a huge batch once divided by zero there) and
// the kernel is refused for its thread count.
func.func @fc(%x: tensor<2x576460752303423487x1xf32>, %y: tensor<2x576460752303423487x1xf32>, %w: tensor<4x1x1xf32>) -> tensor<2x576460752303423487x1xf32> {
  %p = clifford.fc_product <1, 0, 0> %x, %y, %w
      : (tensor<2x576460752303423487x1xf32>, tensor<2x576460752303423487x1xf32>, tensor<4x1x1xf32>) -> tensor<2x576460752303423487x1xf32>
  return %p : tensor<2x576460752303423487x1xf32>
}
