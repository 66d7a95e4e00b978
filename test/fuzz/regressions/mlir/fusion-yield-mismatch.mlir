// A uta.fusion whose body takes fewer arguments than it has inputs and
// yields another type than its result: its verifier once read past a heap
// buffer here.
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %r = uta.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
    uta.yield %0 : tensor<8xf32>
  }
  return %r : tensor<4xf32>
}
