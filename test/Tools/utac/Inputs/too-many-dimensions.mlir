func.func @f(%x: tensor<128x4xf32>) -> tensor<128x4xf32> {
  %0 = clifford.reverse <4, 2, 1> %x : tensor<128x4xf32>
  return %0 : tensor<128x4xf32>
}
