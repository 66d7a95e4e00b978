// r = (x + y) * x: two kernels without fusion, through an intermediate.
func.func @main(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {
  %s = uta.add %x, %y : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %r = uta.mul %s, %x : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}
