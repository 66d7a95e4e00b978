func.func @softmax(%a: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %r = uta.softmax %a dim 1 : tensor<37x1027xf32>
  return %r : tensor<37x1027xf32>
}
