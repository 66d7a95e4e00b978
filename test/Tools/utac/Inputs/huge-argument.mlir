// A 2^32-element argument: 16 GiB as f32, 32 GiB as float64, which the
// reference would hold twice (as given and as rounded).
func.func @huge(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  return %x : tensor<65536x65536xf32>
}
