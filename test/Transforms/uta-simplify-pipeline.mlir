// The `uta` phase as a whole (uta-simplify-pipeline): canonicalization of
// both dialects, CSE, clifford-simplify-grades, then a second round that
// removes what the grade analysis left dead and folds the zeros it made.
// RUN: uta-opt %s -split-input-file --uta-simplify-pipeline | FileCheck %s

// Dead ops of either dialect are erased (DCE comes with the canonicalizer).
// CHECK-LABEL: func @dead_ops_removed
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x16xf32>)
//   CHECK-NOT:   uta.
//   CHECK-NOT:   clifford.
//       CHECK:   return %[[X]]
func.func @dead_ops_removed(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = uta.exp %x : tensor<8x16xf32>
  %r = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %r, %e : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %x : tensor<8x16xf32>
}

// -----

// Two identical products are one (CSE).
// CHECK-LABEL: func @cse_products
//       CHECK:   %[[P:.*]] = clifford.geometric_product
//   CHECK-NOT:   clifford.geometric_product
//       CHECK:   uta.add %[[P]], %[[P]]
func.func @cse_products(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = uta.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// x + (a ∧ b) for bivectors a and b of Cl(3,0): the wedge is zero, so the
// sum folds to x and the projections feeding the wedge die with it.
// CHECK-LABEL: func @zero_product_then_add_zero
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x16xf32>, %{{.*}}: tensor<8x16xf32>)
//   CHECK-NOT:   clifford.
//   CHECK-NOT:   uta.add
//       CHECK:   return %[[X]]
func.func @zero_product_then_add_zero(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [2] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %w = clifford.outer_product <3, 0, 0> %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = uta.add %x, %w : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// The bivector part of the wedge of two vectors is all of it: the outer
// projection goes, and the wedge keeps its operands' blade sets for the
// lowering.
// CHECK-LABEL: func @projection_of_known_grades
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %{{.*}} grades [1]
//       CHECK:   %[[W:.*]] = clifford.grade_project <3, 0, 0> %{{.*}} grades [1]
//       CHECK:   %[[P:.*]] = clifford.outer_product <3, 0, 0> %[[V]], %[[W]] {lhs_blades = #clifford.blades<1, 2, 3>, rhs_blades = #clifford.blades<1, 2, 3>}
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[P]]
func.func @projection_of_known_grades(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %w = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %p = clifford.outer_product <3, 0, 0> %v, %w : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = clifford.grade_project <3, 0, 0> %p grades [2] : tensor<8x16xf32>
  return %q : tensor<8x16xf32>
}

// -----

// Canonicalization first: reverse(reverse(x)) is x, whose grades are
// unknown, so the projection stays and nothing is recorded.
// CHECK-LABEL: func @canonicalize_then_grades
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x16xf32>)
//       CHECK:   %[[P:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1]
//       CHECK:   return %[[P]]
func.func @canonicalize_then_grades(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.reverse <3, 0, 0> %a : tensor<8x16xf32>
  %p = clifford.grade_project <3, 0, 0> %b grades [1] : tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}
