// uta-share-fc-adjoint-gemms: each fc_product_adjoint becomes
// fc_product_pair_adjoint of the pair cotangents of its cotangent and
// weights, made once before the first adjoint that reads them and shared by
// every adjoint of the same (algebra, cotangent, weights, layout) in the block;
// one lhs and one rhs adjoint of those become one fc_product_pair_adjoints.
// RUN: uta-opt %s -split-input-file -uta-share-fc-adjoint-gemms | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-share-fc-adjoint-gemms=remarks=true -verify-diagnostics -o /dev/null

// Both adjoints of one fc_product: one grouped GEMM of the 44 path groups,
// and one op for both adjoints, which reads the pairs once.
// CHECK-LABEL: func @both_adjoints
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x48xf32>, %[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x32x48xf32>)
//  CHECK-NEXT:   %[[T:.+]] = clifford.fc_product_pair_cotangents <3, 0, 0> %[[G]], %[[W]] : (tensor<8x64x48xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
//  CHECK-NEXT:   %[[DX:[^ ]+]], %[[DY:[^ ]+]] = clifford.fc_product_pair_adjoints <3, 0, 0> %[[T]], %[[X]], %[[Y]] : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @both_adjoints(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>) {
  // expected-remark@+2 {{fc_product_adjoint lhs as fc_product_pair_adjoint of 44 path groups' pair cotangents (one GEMM each), read by 2 adjoint(s)}}
  // expected-remark@+1 {{both adjoints of fc_product as one fc_product_pair_adjoints, which reads the pair cotangents once}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  // expected-remark@+1 {{fc_product_adjoint rhs as fc_product_pair_adjoint of 44 path groups' pair cotangents (one GEMM each), read by 2 adjoint(s)}}
  %dy = clifford.fc_product_adjoint <3, 0, 0> rhs %g, %x, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  return %dx, %dy : tensor<8x64x32xf32>, tensor<8x64x32xf32>
}

// -----

// The rhs adjoint's other operand is computed after the lhs adjoint, whose
// result it reads: the adjoints cannot be one op, and each keeps its own
// (sharing the GEMM).
// CHECK-LABEL: func @second_other_after_first
//       CHECK:   %[[T:.+]] = clifford.fc_product_pair_cotangents
//  CHECK-NEXT:   %[[DX:.+]] = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %[[T]]
//  CHECK-NEXT:   %[[X:.+]] = uta.neg %[[DX]]
//  CHECK-NEXT:   clifford.fc_product_pair_adjoint <3, 0, 0> rhs %[[T]], %[[X]]
func.func @second_other_after_first(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x32xf32> {
  // expected-remark@+1 {{read by 2 adjoint(s)}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  %x = uta.neg %dx : tensor<8x64x32xf32>
  // expected-remark@+1 {{read by 2 adjoint(s)}}
  %dy = clifford.fc_product_adjoint <3, 0, 0> rhs %g, %x, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  return %dy : tensor<8x64x32xf32>
}

// -----

// Other weights, or the same weights in the other layout, give pair
// cotangents of their own; the K-major layout is kept on the op.
// CHECK-LABEL: func @distinct_weights
//       CHECK:   %[[T1:.+]] = clifford.fc_product_pair_cotangents <2, 0, 0> %{{.+}}, %[[W:[^ ]+]] :
//  CHECK-NEXT:   clifford.fc_product_pair_adjoint <2, 0, 0> lhs %[[T1]]
//  CHECK-NEXT:   %[[T2:.+]] = clifford.fc_product_pair_cotangents <2, 0, 0> %{{.+}}, %[[V:[^ ]+]] {transpose_weights = true} : (tensor<4x8x5xf32>, tensor<10x5x3xf32>) -> tensor<{{[0-9]+}}x8x3xf32>
//  CHECK-NEXT:   clifford.fc_product_pair_adjoint <2, 0, 0> lhs %[[T2]]
func.func @distinct_weights(%g: tensor<4x8x5xf32>, %y: tensor<4x8x3xf32>, %w: tensor<10x3x5xf32>, %v: tensor<10x5x3xf32>) -> (tensor<4x8x3xf32>, tensor<4x8x3xf32>) {
  // expected-remark@+1 {{read by 1 adjoint(s)}}
  %a = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w : (tensor<4x8x5xf32>, tensor<4x8x3xf32>, tensor<10x3x5xf32>) -> tensor<4x8x3xf32>
  // expected-remark@+1 {{read by 1 adjoint(s)}}
  %b = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %v {transpose_weights = true} : (tensor<4x8x5xf32>, tensor<4x8x3xf32>, tensor<10x5x3xf32>) -> tensor<4x8x3xf32>
  return %a, %b : tensor<4x8x3xf32>, tensor<4x8x3xf32>
}
