// Results that alias and a fill of more than 64 KiB: a value returned
// twice, an argument and a constant returned, each copied into a result
// buffer of its own, and a 256x256 splat filled by a kernel.
func.func @results_aliased_fill(%x: tensor<64x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<4xf32>, tensor<256x256xf32>) {
  %c = arith.constant dense<[0.5, -1.0, 2.0, 3.0]> : tensor<4xf32>
  %fill = arith.constant dense<-1.25> : tensor<256x256xf32>
  %0 = uta.gelu %x : tensor<64x96xf32>
  return %0, %x, %0, %c, %fill : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<4xf32>, tensor<256x256xf32>
}
