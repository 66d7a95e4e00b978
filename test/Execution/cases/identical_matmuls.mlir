// Four identical 64x64 matmuls on their own operands: one kernel, launched
// four times on other buffers (manifest version 2's per-launch arguments).
func.func @identical_matmuls(%a: tensor<64x64xf32>, %b0: tensor<64x64xf32>, %b1: tensor<64x64xf32>, %b2: tensor<64x64xf32>, %b3: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = uta.matmul %a, %b0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = uta.matmul %a, %b1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = uta.matmul %a, %b2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = uta.matmul %a, %b3 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0, %1, %2, %3 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
