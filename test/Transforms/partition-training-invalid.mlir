// uta-partition-training's errors: a taken name, a function that cannot be
// differentiated, and no function to partition.
// RUN: uta-opt %s -split-input-file -verify-diagnostics --uta-partition-training

// expected-error @+1 {{cannot build @taken_forward: the module has a symbol of that name}}
func.func @taken(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = uta.tanh %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func private @taken_forward() -> ()

// -----

// expected-error @+1 {{cannot differentiate @no_results: it has no results}}
func.func @no_results(%x: tensor<8xf32>) {
  return
}

// -----

// expected-error @+1 {{uta-partition-training: the module has no public function}}
module {
  func.func private @hidden(%x: tensor<8xf32>) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
}

// -----

func.func @first(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
// expected-error @+1 {{uta-partition-training: the module has several public functions; name one with function=}}
func.func @second(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
