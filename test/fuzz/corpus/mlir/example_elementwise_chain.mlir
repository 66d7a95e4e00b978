// A 6-op elementwise chain: tanh(gelu(a * b + c) * d) + a, then relu.
// Fused, it reads four tensors once and writes one.
func.func @elementwise_chain(%a: tensor<1000x1003xf32>, %b: tensor<1000x1003xf32>,
                             %c: tensor<1000x1003xf32>, %d: tensor<1000x1003xf32>)
    -> tensor<1000x1003xf32> {
  %0 = uta.mul %a, %b : (tensor<1000x1003xf32>, tensor<1000x1003xf32>) -> tensor<1000x1003xf32>
  %1 = uta.add %0, %c : (tensor<1000x1003xf32>, tensor<1000x1003xf32>) -> tensor<1000x1003xf32>
  %2 = uta.gelu %1 : tensor<1000x1003xf32>
  %3 = uta.mul %2, %d : (tensor<1000x1003xf32>, tensor<1000x1003xf32>) -> tensor<1000x1003xf32>
  %4 = uta.tanh %3 : tensor<1000x1003xf32>
  %5 = uta.add %4, %a : (tensor<1000x1003xf32>, tensor<1000x1003xf32>) -> tensor<1000x1003xf32>
  return %5 : tensor<1000x1003xf32>
}
