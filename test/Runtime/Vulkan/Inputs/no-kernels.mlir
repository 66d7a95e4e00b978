// Graphs whose results need no computation: the SPIR-V binary of each is one
// empty entry point that the manifest never launches (no-kernels.test).

// A constant result: the constant buffer itself.
func.func @constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// The argument as the result.
func.func @identity(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  return %x : tensor<3x5xf32>
}

// Every result empty.
func.func @empty(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %0 = uta.exp %x : tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// A constant function: its gradient (--grad=vjp) is a constant zero.
func.func @flat(%x: tensor<4xf32>) -> tensor<f32> {
  %c = arith.constant dense<3.0> : tensor<f32>
  return %c : tensor<f32>
}
