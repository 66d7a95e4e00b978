// RUN: uta-opt %s | uta-opt | FileCheck %s

// CHECK-LABEL: func @geometric_product
func.func @geometric_product(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK: clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}
