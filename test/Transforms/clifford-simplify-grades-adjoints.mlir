// clifford-simplify-grades on gradient graphs: the adjoints of the products
// (product_adjoint, weighted_product_adjoint) record the blades their
// cotangent and other operand may have (cotangent_blades, other_blades), as
// the forward products record lhs_blades and rhs_blades.
// Cl(3,0) blades by index: 0:1 1:e1 2:e2 3:e3 4:e12 5:e13 6:e23 7:e123.
// Cl(3,0,1) (e0 squares to 0): 0:1, 1-4: e0 e1 e2 e3, 5-10: e01 e02 e03 e12
// e13 e23, 11-14: the trivectors, 15: e0123; even grades <0, 5-10, 15>.
// RUN: uta-opt %s -split-input-file --uta-differentiate --clifford-simplify-grades | FileCheck %s
// Running the pass again changes nothing.
// RUN: uta-opt %s -split-input-file --uta-differentiate --clifford-simplify-grades --clifford-simplify-grades | FileCheck %s
// The adjoint ops on their own are in clifford-simplify-grades.mlir.

// The geometric product of two vectors: each adjoint's other operand is a
// vector. The cotangent is the gradient's input, of unknown blades.
// CHECK-LABEL: func.func @vectors_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<8x16xf32>)
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1]
//       CHECK:   %[[W:.*]] = clifford.grade_project <3, 0, 0> %[[Y]] grades [1]
//       CHECK:   clifford.product_adjoint <3, 0, 0> geometric lhs %[[G]], %[[W]] {other_blades = #clifford.blades<1, 2, 3>}
//       CHECK:   clifford.product_adjoint <3, 0, 0> geometric rhs %[[G]], %[[V]] {other_blades = #clifford.blades<1, 2, 3>}
func.func @vectors_cl30(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %w = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %w : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// Only the bivector part of v y is used: the projection's gradient makes the
// product's cotangent a bivector, which both adjoints record.
// CHECK-LABEL: func.func @bivector_part_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<8x16xf32>)
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1]
//       CHECK:   %[[GB:.*]] = clifford.grade_project <3, 0, 0> %[[G]] grades [2]
//       CHECK:   clifford.product_adjoint <3, 0, 0> geometric lhs %[[GB]], %[[Y]] {cotangent_blades = #clifford.blades<4, 5, 6>} :
//       CHECK:   clifford.product_adjoint <3, 0, 0> geometric rhs %[[GB]], %[[V]] {cotangent_blades = #clifford.blades<4, 5, 6>, other_blades = #clifford.blades<1, 2, 3>}
func.func @bivector_part_cl30(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %p grades [2] : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// An even motor acting on planes of Cl(3,0,1): sandwich's rule is four
// product adjoints (of r x, and of (r x) reverse(r)); their other operands
// are the motor (even), its reverse (even), r x (odd) and the planes.
// CHECK-LABEL: func.func @motor_sandwich_cl301_vjp(
//  CHECK-SAME:     %[[R:arg[0-9]+]]: tensor<16x1xf32>, %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//       CHECK:   %[[M:.*]] = clifford.grade_project <3, 0, 1> %[[R]] grades [0, 2, 4]
//       CHECK:   %[[P:.*]] = clifford.grade_project <3, 0, 1> %[[X]] grades [1]
//       CHECK:   %[[MR:.*]] = clifford.reverse <3, 0, 1> %[[M]]
//       CHECK:   %[[A:.*]] = clifford.product_adjoint <3, 0, 1> geometric lhs %[[G]], %[[MR]] {other_blades = #clifford.blades<0, 5, 6, 7, 8, 9, 10, 15>}
//       CHECK:   %[[RX:.*]] = clifford.geometric_product <3, 0, 1> %[[M]], %[[P]] {lhs_blades = #clifford.blades<0, 5, 6, 7, 8, 9, 10, 15>, rhs_blades = #clifford.blades<1, 2, 3, 4>}
//       CHECK:   clifford.product_adjoint <3, 0, 1> geometric rhs %[[G]], %[[RX]] {other_blades = #clifford.blades<1, 2, 3, 4, 11, 12, 13, 14>}
//       CHECK:   clifford.product_adjoint <3, 0, 1> geometric lhs %[[A]], %[[P]] {other_blades = #clifford.blades<1, 2, 3, 4>}
//       CHECK:   clifford.product_adjoint <3, 0, 1> geometric rhs %[[A]], %[[M]] {other_blades = #clifford.blades<0, 5, 6, 7, 8, 9, 10, 15>}
func.func @motor_sandwich_cl301(%r: tensor<16x1xf32>, %x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %m = clifford.grade_project <3, 0, 1> %r grades [0, 2, 4] : tensor<16x1xf32>
  %p = clifford.grade_project <3, 0, 1> %x grades [1] : tensor<16x8xf32>
  %s = clifford.sandwich <3, 0, 1> %m, %p : (tensor<16x1xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

// weighted_product of vectors and even multivectors, of which only the
// vector part is used: the adjoints record a vector cotangent and the other
// operand's grades; path_adjoint records nothing.
// CHECK-LABEL: func.func @weighted_cl30_vjp(
//       CHECK:   clifford.weighted_product_adjoint <3, 0, 0> lhs {{.*}} {cotangent_blades = #clifford.blades<1, 2, 3>, other_blades = #clifford.blades<0, 4, 5, 6>}
//       CHECK:   clifford.weighted_product_adjoint <3, 0, 0> rhs {{.*}} {cotangent_blades = #clifford.blades<1, 2, 3>, other_blades = #clifford.blades<1, 2, 3>}
//   CHECK-NOT:   clifford.path_adjoint {{.*}}blades
func.func @weighted_cl30(%x: tensor<8x4x32xf32>, %y: tensor<8x4x32xf32>, %w: tensor<32x20xf32>) -> tensor<8x4x32xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x4x32xf32>
  %e = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x4x32xf32>
  %p = clifford.weighted_product <3, 0, 0> %v, %e, %w : (tensor<8x4x32xf32>, tensor<8x4x32xf32>, tensor<32x20xf32>) -> tensor<8x4x32xf32>
  %b = clifford.grade_project <3, 0, 0> %p grades [1] : tensor<8x4x32xf32>
  return %b : tensor<8x4x32xf32>
}

// -----

// The scalar product's one-blade cotangent may be non-zero, which is no news
// (its set would be <0>): only the other operand's set is recorded.
// CHECK-LABEL: func.func @scalar_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<1x16xf32>)
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1]
//       CHECK:   clifford.product_adjoint <3, 0, 0> scalar lhs %[[G]], %[[Y]] :
//       CHECK:   clifford.product_adjoint <3, 0, 0> scalar rhs %[[G]], %[[V]] {other_blades = #clifford.blades<1, 2, 3>}
func.func @scalar_cl30(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<1x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %p = clifford.scalar_product <3, 0, 0> %v, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %p : tensor<1x16xf32>
}
