// A graph already in the fused phase's form.
func.func @fused(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %r = uta.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>):
    %0 = uta.mul %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = uta.exp %0 : tensor<8xf32>
    uta.yield %1 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
