// Pointwise tensor ops feeding a geometric product, one of them read twice:
// one kernel (uta-fuse-kernels recomputes the uta producers per blade the
// product reads).
func.func @fuse_pointwise_into_clifford(%a: tensor<8x1000xf32>, %b: tensor<8x1000xf32>, %y: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %s = uta.mul %a, %b : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %t = uta.tanh %s : tensor<8x1000xf32>
  %u = uta.add %t, %s : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %z = clifford.geometric_product <3, 0, 0> %u, %y : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  return %z : tensor<8x1000xf32>
}
