// Only a private function: nothing to compile.

func.func private @hidden(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
