// An argument that no op reads, of more bytes than an int64 holds
// (test/Tools/utac/unused-huge-argument.test).
func.func @bigarg(%x: tensor<8xf32>, %unused: tensor<4294967296x4294967296xf32>) -> tensor<8xf32> {
  %0 = uta.exp %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
