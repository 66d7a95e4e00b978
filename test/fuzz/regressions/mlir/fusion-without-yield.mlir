// A uta.fusion body that does not end in uta.yield: its verifier once cast
// the last op to uta.yield unchecked.
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = uta.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>):
    %0 = uta.exp %x : tensor<8xf32>
    func.return %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
