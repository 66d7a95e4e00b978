// Every result is empty: the graph needs no kernel.

func.func @empty(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %0 = uta.exp %x : tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}
