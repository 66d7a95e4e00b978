// 2^32 elements (16 GiB of f32): too long for a SPIR-V array, whose length
// is a 32-bit constant.
func.func @long(%x: tensor<4294967296xf32>) -> tensor<4294967296xf32> {
  %0 = uta.exp %x : tensor<4294967296xf32>
  return %0 : tensor<4294967296xf32>
}
