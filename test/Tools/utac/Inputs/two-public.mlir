// Two public functions: which one to compile is ambiguous without --entry.
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
