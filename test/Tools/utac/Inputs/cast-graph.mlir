// An f32 graph through an f16 cast: finite differences would measure the
// rounding, so --check-grad refuses it.
func.func @cast_graph(%x: tensor<8xf32>) -> tensor<8xf32> {
  %h = uta.cast %x : tensor<8xf32> -> tensor<8xf16>
  %y = uta.cast %h : tensor<8xf16> -> tensor<8xf32>
  return %y : tensor<8xf32>
}
