// 2^32 x 2^32 elements: the count does not fit int64. This once compiled,
// with exit 0, to a manifest of 0 bytes and 0 kernels.
func.func @f(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %r = uta.exp %a : tensor<4294967296x4294967296xf32>
  return %r : tensor<4294967296x4294967296xf32>
}
