// Folds and canonicalization patterns of the clifford dialect
// (CliffordFolds.cpp), with the cases that must stay as they are.
//
// RUN: uta-opt %s -split-input-file -canonicalize | FileCheck %s

//===----------------------------------------------------------------------===//
// Involutions are their own inverses
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @reverse_reverse
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//   CHECK-NOT:   clifford.reverse
//       CHECK:   return %[[X]]
func.func @reverse_reverse(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.reverse <3, 0, 0> %a : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// Three reverses leave one.
// CHECK-LABEL: func @reverse_three_times
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[R:.+]] = clifford.reverse <3, 0, 0> %[[X]] : tensor<8x16xf32>
//   CHECK-NOT:   clifford.reverse
//       CHECK:   return %[[R]]
func.func @reverse_three_times(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.reverse <3, 0, 0> %a : tensor<8x16xf32>
  %c = clifford.reverse <3, 0, 0> %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

// The inner op keeps its other user; only the outer one folds away.
// CHECK-LABEL: func @reverse_reverse_shared
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8xf32>)
//       CHECK:   %[[R:.+]] = clifford.reverse <3, 0, 0> %[[X]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//   CHECK-NOT:   clifford.reverse
//       CHECK:   return %[[X]], %[[R]]
func.func @reverse_reverse_shared(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = clifford.reverse <3, 0, 0> %x {blade_axis = 1} : tensor<4x8xf32>
  %b = clifford.reverse <3, 0, 0> %a {blade_axis = 1} : tensor<4x8xf32>
  return %b, %a : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @grade_involution_grade_involution
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<16x3xf32>)
//   CHECK-NOT:   clifford.grade_involution
//       CHECK:   return %[[X]]
func.func @grade_involution_grade_involution(%x: tensor<16x3xf32>) -> tensor<16x3xf32> {
  %a = clifford.grade_involution <3, 0, 1> %x : tensor<16x3xf32>
  %b = clifford.grade_involution <3, 0, 1> %a : tensor<16x3xf32>
  return %b : tensor<16x3xf32>
}

// -----

// CHECK-LABEL: func @conjugate_conjugate
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//   CHECK-NOT:   clifford.conjugate
//       CHECK:   return %[[X]]
func.func @conjugate_conjugate(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.conjugate <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.conjugate <3, 0, 0> %a : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// reverse and grade_involution are different involutions: reverse(x*) is the
// Clifford conjugate, not x.
// CHECK-LABEL: func @no_reverse_fold_of_grade_involution
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_involution <3, 0, 0> %[[X]]
//       CHECK:   %[[B:.+]] = clifford.reverse <3, 0, 0> %[[A]]
//       CHECK:   return %[[B]]
func.func @no_reverse_fold_of_grade_involution(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_involution <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.reverse <3, 0, 0> %a : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// conjugate after reverse is the grade involution, not the identity.
// CHECK-LABEL: func @no_conjugate_fold_of_reverse
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[A:.+]] = clifford.reverse <3, 0, 0> %[[X]]
//       CHECK:   %[[B:.+]] = clifford.conjugate <3, 0, 0> %[[A]]
//       CHECK:   return %[[B]]
func.func @no_conjugate_fold_of_reverse(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.conjugate <3, 0, 0> %a : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// A square tensor whose two axes both have 8 entries: reversing along axis 0
// then along axis 1 is not the identity.
// CHECK-LABEL: func @no_reverse_fold_different_blade_axis
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x8xf32>)
//       CHECK:   %[[A:.+]] = clifford.reverse <3, 0, 0> %[[X]] : tensor<8x8xf32>
//       CHECK:   %[[B:.+]] = clifford.reverse <3, 0, 0> %[[A]] {blade_axis = 1 : i64} : tensor<8x8xf32>
//       CHECK:   return %[[B]]
func.func @no_reverse_fold_different_blade_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x8xf32>
  %b = clifford.reverse <3, 0, 0> %a {blade_axis = 1} : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// Same blade count, different algebras: the blades mean different things.
// CHECK-LABEL: func @no_conjugate_fold_different_algebra
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8xf32>)
//       CHECK:   %[[A:.+]] = clifford.conjugate <3, 0, 0> %[[X]]
//       CHECK:   %[[B:.+]] = clifford.conjugate <2, 1, 0> %[[A]]
//       CHECK:   return %[[B]]
func.func @no_conjugate_fold_different_algebra(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = clifford.conjugate <3, 0, 0> %x : tensor<8xf32>
  %b = clifford.conjugate <2, 1, 0> %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// A lone involution is kept.
// CHECK-LABEL: func @no_grade_involution_fold_single
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_involution <3, 0, 0> %[[X]]
//       CHECK:   return %[[A]]
func.func @no_grade_involution_fold_single(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = clifford.grade_involution <3, 0, 0> %x : tensor<8xf32>
  return %a : tensor<8xf32>
}

//===----------------------------------------------------------------------===//
// Grade projections
//===----------------------------------------------------------------------===//

// -----

// Grades 0..3 are all of Cl(3,0).
// CHECK-LABEL: func @grade_project_all
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[X]]
func.func @grade_project_all(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [0, 1, 2, 3] : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}

// -----

// Grades 0..4 are all of the projective Cl(3,0,1).
// CHECK-LABEL: func @grade_project_all_pga
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<2x16xf32>)
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[X]]
func.func @grade_project_all_pga(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %a = clifford.grade_project <3, 0, 1> %x grades [0, 1, 2, 3, 4] {blade_axis = 1} : tensor<2x16xf32>
  return %a : tensor<2x16xf32>
}

// -----

// Four grades of Cl(3,0,1) (n = 4) are not all five.
// CHECK-LABEL: func @no_grade_project_fold_missing_grade
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<16xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_project <3, 0, 1> %[[X]] grades [0, 1, 2, 3] : tensor<16xf32>
//       CHECK:   return %[[A]]
func.func @no_grade_project_fold_missing_grade(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = clifford.grade_project <3, 0, 1> %x grades [0, 1, 2, 3] : tensor<16xf32>
  return %a : tensor<16xf32>
}

// -----

// [0, 1, 2] ∩ [1, 2, 3] = [1, 2].
// CHECK-LABEL: func @grade_project_intersection
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[P:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1, 2] : tensor<8x16xf32>
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[P]]
func.func @grade_project_intersection(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [0, 1, 2] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [1, 2, 3] : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// The inner projection keeps a second user, so it stays; the outer one
// still reads x directly.
// CHECK-LABEL: func @grade_project_intersection_shared
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<3x8xf32>)
//   CHECK-DAG:   %[[A:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [0, 2] {blade_axis = 1 : i64} : tensor<3x8xf32>
//   CHECK-DAG:   %[[B:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [2] {blade_axis = 1 : i64} : tensor<3x8xf32>
//       CHECK:   return %[[B]], %[[A]]
func.func @grade_project_intersection_shared(%x: tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>) {
  %a = clifford.grade_project <3, 0, 0> %x grades [0, 2] {blade_axis = 1} : tensor<3x8xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [1, 2] {blade_axis = 1} : tensor<3x8xf32>
  return %b, %a : tensor<3x8xf32>, tensor<3x8xf32>
}

// -----

// The outer projection keeps every grade the inner one left: [0, 2] ∩ [0, 1, 2]
// = [0, 2], so the inner projection is the answer.
// CHECK-LABEL: func @grade_project_outer_redundant
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [0, 2] : tensor<8xf32>
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[A]]
func.func @grade_project_outer_redundant(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [0, 1, 2] : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// The even part of a vector projection is zero: [1] ∩ [0, 2] is empty.
// CHECK-LABEL: func @grade_project_disjoint
//       CHECK:   %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.grade_project
//       CHECK:   return %[[Z]]
func.func @grade_project_disjoint(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [0, 2] : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// Projections along different blade axes of a square tensor do not commute
// into one projection.
// CHECK-LABEL: func @no_grade_project_merge_different_blade_axis
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x8xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1] : tensor<8x8xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_project <3, 0, 0> %[[A]] grades [2] {blade_axis = 1 : i64} : tensor<8x8xf32>
//       CHECK:   return %[[B]]
func.func @no_grade_project_merge_different_blade_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x8xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [2] {blade_axis = 1} : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// Cl(2,0) and Cl(1,1) both have 4 blades, but a pair of projections is only
// merged within one algebra.
// CHECK-LABEL: func @no_grade_project_merge_different_algebra
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_project <2, 0, 0> %[[X]] grades [1] : tensor<4xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_project <1, 1, 0> %[[A]] grades [2] : tensor<4xf32>
//       CHECK:   return %[[B]]
func.func @no_grade_project_merge_different_algebra(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = clifford.grade_project <2, 0, 0> %x grades [1] : tensor<4xf32>
  %b = clifford.grade_project <1, 1, 0> %a grades [2] : tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// A projection of something that is not a projection stays.
// CHECK-LABEL: func @no_grade_project_merge_of_reverse
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8xf32>)
//       CHECK:   %[[A:.+]] = clifford.reverse <3, 0, 0> %[[X]]
//       CHECK:   %[[B:.+]] = clifford.grade_project <3, 0, 0> %[[A]] grades [2]
//       CHECK:   return %[[B]]
func.func @no_grade_project_merge_of_reverse(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8xf32>
  %b = clifford.grade_project <3, 0, 0> %a grades [2] : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// pair_gate has no fold: a used one stays, an unused one (pure) goes.
// CHECK-LABEL: func @pair_gate_kept
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>, %[[Y:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[Z:.+]] = clifford.pair_gate <3, 0, 0> %[[X]], %[[Y]] : tensor<8x16xf32>
//   CHECK-NOT:   clifford.pair_gate
//       CHECK:   return %[[Z]]
func.func @pair_gate_kept(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %z = clifford.pair_gate <3, 0, 0> %x, %y : tensor<8x16xf32>
  %unused = clifford.pair_gate <3, 0, 0> %y, %x : tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// pair_gate_factor has no fold: a used one stays, an unused one (pure)
// goes, and a gated fc_product keeps its gate.
// CHECK-LABEL: func @pair_gate_factor_kept
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8x16xf32>, %[[Y:[^:]+]]: tensor<4x8x16xf32>, %[[W:[^:]+]]: tensor<10x16x12xf32>)
//       CHECK:   %[[G:.+]] = clifford.pair_gate_factor <2, 0, 0> %[[X]], %[[Y]]
//   CHECK-NOT:   clifford.pair_gate_factor
//       CHECK:   %[[Z:.+]] = clifford.fc_product <2, 0, 0> %[[X]], %[[Y]], %[[W]] gate %[[G]]
//       CHECK:   return %[[Z]]
func.func @pair_gate_factor_kept(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> tensor<4x8x12xf32> {
  %g = clifford.pair_gate_factor <2, 0, 0> %x, %y : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<8x16xf32>
  %unused = clifford.pair_gate_factor <2, 0, 0> %y, %x : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<8x16xf32>
  %z = clifford.fc_product <2, 0, 0> %x, %y, %w gate %g : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>, tensor<8x16xf32>) -> tensor<4x8x12xf32>
  return %z : tensor<4x8x12xf32>
}

// -----

// fc_product_adjoint has no folds (a zero cotangent is not known to be
// zero here): a used one stays; an unused one is dead code (Pure).
// CHECK-LABEL: func @no_fc_product_adjoint_fold
//  CHECK-NEXT:   %[[A:.+]] = clifford.fc_product_adjoint <2, 0, 0> lhs
//  CHECK-NEXT:   return %[[A]]
func.func @no_fc_product_adjoint_fold(%g: tensor<4x3x5xf32>, %y: tensor<4x3x2xf32>, %w: tensor<10x2x5xf32>) -> tensor<4x3x2xf32> {
  %a = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<10x2x5xf32>) -> tensor<4x3x2xf32>
  %unused = clifford.fc_product_adjoint <2, 0, 0> rhs %g, %y, %w : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<10x2x5xf32>) -> tensor<4x3x2xf32>
  return %a : tensor<4x3x2xf32>
}

// -----

// Nor has fc_product_weight_gradient: a used one stays, an unused one goes.
// CHECK-LABEL: func @no_fc_product_weight_gradient_fold
//  CHECK-NEXT:   %[[A:.+]] = clifford.fc_product_weight_gradient <2, 0, 0>
//  CHECK-NEXT:   return %[[A]]
func.func @no_fc_product_weight_gradient_fold(%g: tensor<4x3x5xf32>, %x: tensor<4x3x2xf32>) -> tensor<10x2x5xf32> {
  %a = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<10x2x5xf32>
  %unused = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {transpose_weights = true} : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<10x5x2xf32>
  return %a : tensor<10x2x5xf32>
}

// -----

// Nor do its runs of the batch fold into one (uta-split-k made them, for
// the grid): the partial gradients and their sum stay.
// CHECK-LABEL: func @no_fc_product_weight_gradient_runs_fold
//  CHECK-NEXT:   %[[R:.+]] = clifford.fc_product_weight_gradient <2, 0, 0> {{.+}} {batch_runs = 3 : i64}
//  CHECK-NEXT:   %[[S:.+]] = uta.reduce_sum %[[R]]
//  CHECK-NEXT:   return %[[S]]
func.func @no_fc_product_weight_gradient_runs_fold(%g: tensor<4x3x5xf32>, %x: tensor<4x3x2xf32>) -> tensor<10x2x5xf32> {
  %r = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x {batch_runs = 3} : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<3x10x2x5xf32>
  %s = uta.reduce_sum %r dims [0] : tensor<3x10x2x5xf32> -> tensor<10x2x5xf32>
  return %s : tensor<10x2x5xf32>
}

// -----

// The pair ops have no folds either: used ones stay, unused ones are dead.
// CHECK-LABEL: func @no_fc_product_pair_fold
//  CHECK-NEXT:   %[[T:.+]] = clifford.fc_product_pair_cotangents <2, 0, 0>
//  CHECK-NEXT:   %[[A:.+]] = clifford.fc_product_pair_adjoint <2, 0, 0> lhs %[[T]]
//  CHECK-NEXT:   return %[[A]]
func.func @no_fc_product_pair_fold(%g: tensor<4x3x5xf32>, %y: tensor<4x3x2xf32>, %w: tensor<10x2x5xf32>) -> tensor<4x3x2xf32> {
  %t = clifford.fc_product_pair_cotangents <2, 0, 0> %g, %w : (tensor<4x3x5xf32>, tensor<10x2x5xf32>) -> tensor<14x3x2xf32>
  %unused = clifford.fc_product_pair_cotangents <2, 0, 0> %g, %w {transpose_weights = false} : (tensor<4x3x5xf32>, tensor<10x2x5xf32>) -> tensor<14x3x2xf32>
  %a = clifford.fc_product_pair_adjoint <2, 0, 0> lhs %t, %y : (tensor<14x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  %b = clifford.fc_product_pair_adjoint <2, 0, 0> rhs %t, %y : (tensor<14x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %a : tensor<4x3x2xf32>
}

// -----

// fc_product_pair_adjoints with one result unread is that result's single
// adjoint: x's gradient scales y's blades, y's x's.
// CHECK-LABEL: func @pair_adjoints_lhs_only
//  CHECK-SAME:   (%[[T:[^:]+]]: tensor<14x3x2xf32>, %[[X:[^:]+]]: tensor<4x3x2xf32>, %[[Y:[^:]+]]: tensor<4x3x2xf32>)
//  CHECK-NEXT:   %[[A:.+]] = clifford.fc_product_pair_adjoint <2, 0, 0> lhs %[[T]], %[[Y]] : (tensor<14x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
//  CHECK-NEXT:   return %[[A]]
func.func @pair_adjoints_lhs_only(%t: tensor<14x3x2xf32>, %x: tensor<4x3x2xf32>, %y: tensor<4x3x2xf32>) -> tensor<4x3x2xf32> {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>)
  return %dx : tensor<4x3x2xf32>
}

// CHECK-LABEL: func @pair_adjoints_rhs_only
//  CHECK-SAME:   (%[[T:[^:]+]]: tensor<14x3x2xf32>, %[[X:[^:]+]]: tensor<4x3x2xf32>, %[[Y:[^:]+]]: tensor<4x3x2xf32>)
//  CHECK-NEXT:   %[[B:.+]] = clifford.fc_product_pair_adjoint <2, 0, 0> rhs %[[T]], %[[X]] : (tensor<14x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
//  CHECK-NEXT:   return %[[B]]
func.func @pair_adjoints_rhs_only(%t: tensor<14x3x2xf32>, %x: tensor<4x3x2xf32>, %y: tensor<4x3x2xf32>) -> tensor<4x3x2xf32> {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>)
  return %dy : tensor<4x3x2xf32>
}

// Both results read: it stays; neither: it is dead.
// CHECK-LABEL: func @no_pair_adjoints_split_both_read
//  CHECK-NEXT:   %[[DX:[^ ]+]], %[[DY:[^ ]+]] = clifford.fc_product_pair_adjoints <2, 0, 0>
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @no_pair_adjoints_split_both_read(%t: tensor<14x3x2xf32>, %x: tensor<4x3x2xf32>, %y: tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %x, %y : (tensor<14x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>)
  %unused:2 = clifford.fc_product_pair_adjoints <2, 0, 0> %t, %y, %x : (tensor<14x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>)
  return %dx, %dy : tensor<4x3x2xf32>, tensor<4x3x2xf32>
}
