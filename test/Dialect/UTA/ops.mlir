// RUN: uta-opt %s | uta-opt | FileCheck %s

// CHECK-LABEL: func @add
func.func @add(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK: uta.add %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = uta.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
