// A zero-element argument and result beside a non-empty one (zero-elements.test):
// the kernel over zero elements is left out of the manifest.
func.func @zero_elements(%a: tensor<0x4xf32>, %b: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<4xf32>) {
  %0 = uta.add %a, %b : (tensor<0x4xf32>, tensor<4xf32>) -> tensor<0x4xf32>
  %1 = uta.mul %b, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<0x4xf32>, tensor<4xf32>
}
