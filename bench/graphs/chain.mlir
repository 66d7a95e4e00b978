// tanh(gelu(a * b + c) * d) + a over 2^27 f32 elements (bench/bench.py).
func.func @chain(%a: tensor<8192x16384xf32>, %b: tensor<8192x16384xf32>,
                 %c: tensor<8192x16384xf32>, %d: tensor<8192x16384xf32>)
    -> tensor<8192x16384xf32> {
  %0 = uta.mul %a, %b : (tensor<8192x16384xf32>, tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
  %1 = uta.add %0, %c : (tensor<8192x16384xf32>, tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
  %2 = uta.gelu %1 : tensor<8192x16384xf32>
  %3 = uta.mul %2, %d : (tensor<8192x16384xf32>, tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
  %4 = uta.tanh %3 : tensor<8192x16384xf32>
  %5 = uta.add %4, %a : (tensor<8192x16384xf32>, tensor<8192x16384xf32>) -> tensor<8192x16384xf32>
  return %5 : tensor<8192x16384xf32>
}
