// clifford-simplify-grades: projections of values whose blades are known,
// results proven zero, and the operand blade sets recorded on products and
// on their adjoints (gradient graphs: clifford-simplify-grades-adjoints.mlir).
// Cl(3,0) blades by index: 0:1 1:e1 2:e2 3:e3 4:e12 5:e13 6:e23 7:e123, so
// vectors are <1, 2, 3> and bivectors <4, 5, 6>.
// RUN: uta-opt %s -split-input-file -clifford-simplify-grades | FileCheck %s
// Running the pass again changes nothing.
// RUN: uta-opt %s -split-input-file -clifford-simplify-grades -clifford-simplify-grades | FileCheck %s

//===----------------------------------------------------------------------===//
// grade_project of a value whose blades are known
//===----------------------------------------------------------------------===//

// v ∧ w of two vectors is a bivector: projecting it onto grades [1, 2] keeps
// all of it, onto [2] too, and onto [0, 1] leaves nothing.
// CHECK-LABEL: func @project_outer_of_vectors
//       CHECK:   %[[P:.*]] = clifford.outer_product
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.grade_project <3, 0, 0> %[[P]]
//       CHECK:   return %[[P]], %[[P]], %[[Z]]
func.func @project_outer_of_vectors(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %w = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %p = clifford.outer_product <3, 0, 0> %v, %w : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = clifford.grade_project <3, 0, 0> %p grades [1, 2] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %p grades [2] : tensor<8x16xf32>
  %c = clifford.grade_project <3, 0, 0> %p grades [0, 1] : tensor<8x16xf32>
  return %a, %b, %c : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// The geometric product of two vectors has grades 0 and 2: its vector part
// is zero, its scalar part is neither all of it nor nothing.
// CHECK-LABEL: func @project_geometric_of_vectors
//       CHECK:   %[[P:.*]] = clifford.geometric_product
//       CHECK:   %[[S:.*]] = clifford.grade_project <3, 0, 0> %[[P]] grades [0]
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//       CHECK:   return %[[S]], %[[Z]]
func.func @project_geometric_of_vectors(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %w = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %w : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = clifford.grade_project <3, 0, 0> %p grades [0] : tensor<8x16xf32>
  %z = clifford.grade_project <3, 0, 0> %p grades [1] : tensor<8x16xf32>
  return %s, %z : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// The grades of a function argument are unknown: no projection folds.
// CHECK-LABEL: func @no_project_fold_unknown_grades
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x16xf32>)
//       CHECK:   %[[A:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [1]
//       CHECK:   %[[B:.*]] = clifford.grade_project <3, 0, 0> %[[X]] grades [0, 2]
//       CHECK:   return %[[A]], %[[B]]
func.func @no_project_fold_unknown_grades(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %a = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x16xf32>
  return %a, %b : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// exp(0) = 1: the blades of an exp are unknown even where its input's are.
// CHECK-LABEL: func @no_project_fold_after_exp
//       CHECK:   %[[E:.*]] = uta.exp
//       CHECK:   %[[P:.*]] = clifford.grade_project <3, 0, 0> %[[E]] grades [1]
//       CHECK:   return %[[P]]
func.func @no_project_fold_after_exp(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %e = uta.exp %v : tensor<8x16xf32>
  %p = clifford.grade_project <3, 0, 0> %e grades [1] : tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A projection along axis 1 says nothing about the blades along axis 0 of
// the same square tensor.
// CHECK-LABEL: func @no_project_fold_other_blade_axis
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %{{.*}} grades [1] {blade_axis = 1 : i64}
//       CHECK:   %[[P:.*]] = clifford.grade_project <3, 0, 0> %[[V]] grades [1] : tensor<8x8xf32>
//       CHECK:   return %[[P]]
func.func @no_project_fold_other_blade_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] {blade_axis = 1} : tensor<8x8xf32>
  %p = clifford.grade_project <3, 0, 0> %v grades [1] : tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}

// -----

// The involutions, scalar_gate and dual map known blades: reverse and the
// gate keep a bivector a bivector; the dual of a vector in Cl(3,0) is a
// bivector (e1 I^-1 = -e23, e2 I^-1 = e13, e3 I^-1 = -e12).
// CHECK-LABEL: func @project_after_unary_ops
//       CHECK:   %[[B:.*]] = clifford.grade_project <3, 0, 0> %{{.*}} grades [2]
//       CHECK:   %[[R:.*]] = clifford.reverse <3, 0, 0> %[[B]]
//       CHECK:   %[[G:.*]] = clifford.scalar_gate <3, 0, 0> %[[R]]
//       CHECK:   %[[V:.*]] = clifford.grade_project <3, 0, 0> %{{.*}} grades [1]
//       CHECK:   %[[D:.*]] = clifford.dual <3, 0, 0> %[[V]]
//       CHECK:   return %[[G]], %[[D]]
func.func @project_after_unary_ops(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %b = clifford.grade_project <3, 0, 0> %x grades [2] : tensor<8x16xf32>
  %r = clifford.reverse <3, 0, 0> %b : tensor<8x16xf32>
  %g = clifford.scalar_gate <3, 0, 0> %r : tensor<8x16xf32>
  %p = clifford.grade_project <3, 0, 0> %g grades [2] : tensor<8x16xf32>
  %v = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %d = clifford.dual <3, 0, 0> %v : tensor<8x16xf32>
  %q = clifford.grade_project <3, 0, 0> %d grades [2] : tensor<8x16xf32>
  return %p, %q : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A constant whose only non-zero entries are on blades 0 and 7 (scalar and
// pseudoscalar) has no grade-1 or grade-2 part.
// CHECK-LABEL: func @project_constant
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x2xf32>
//       CHECK:   return %[[Z]]
func.func @project_constant() -> tensor<8x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, -3.0]]> : tensor<8x2xf32>
  %p = clifford.grade_project <3, 0, 0> %c grades [1, 2] : tensor<8x2xf32>
  return %p : tensor<8x2xf32>
}

//===----------------------------------------------------------------------===//
// Products proven zero
//===----------------------------------------------------------------------===//

// -----

// Cl(3,0) has no grade 4: the outer product of two bivectors is zero.
// CHECK-LABEL: func @outer_of_bivectors_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.outer_product
//       CHECK:   return %[[Z]]
func.func @outer_of_bivectors_is_zero(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.grade_project <3, 0, 0> %x grades [2] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %p = clifford.outer_product <3, 0, 0> %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A bivector contracted into a vector: grade 1 - 2 < 0, so nothing is left.
// CHECK-LABEL: func @contract_bivector_into_vector_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.left_contraction
//       CHECK:   return %[[Z]]
func.func @contract_bivector_into_vector_is_zero(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %b = clifford.grade_project <3, 0, 0> %x grades [2] : tensor<8x16xf32>
  %v = clifford.grade_project <3, 0, 0> %y grades [1] : tensor<8x16xf32>
  %p = clifford.left_contraction <3, 0, 0> %b, %v : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A vector contracted into a bivector is a vector: not zero.
// CHECK-LABEL: func @no_zero_contract_vector_into_bivector
//       CHECK:   %[[P:.*]] = clifford.left_contraction
//       CHECK:   return %[[P]]
func.func @no_zero_contract_vector_into_bivector(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %p = clifford.left_contraction <3, 0, 0> %v, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A vector times a bivector has no scalar part (e1 e12 = e2, e1 e23 =
// e123): the scalar product is zero, with its blade axis of size 1.
// CHECK-LABEL: func @scalar_product_vector_bivector_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x16xf32>
//       CHECK:   return %[[Z]]
func.func @scalar_product_vector_bivector_is_zero(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<1x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %s = clifford.scalar_product <3, 0, 0> %v, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %s : tensor<1x16xf32>
}

// -----

// In the degenerate Cl(3,0,1) the null vector e0 (blade 1) squares to 0: a
// multivector that is a multiple of e0 times itself is zero.
// CHECK-LABEL: func @degenerate_square_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x4xf32>
//       CHECK:   return %[[Z]]
func.func @degenerate_square_is_zero(%x: tensor<1x4xf32>) -> tensor<16x4xf32> {
  %e0 = arith.constant dense<[[0.0], [1.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0]]> : tensor<16x1xf32>
  %m = uta.mul %e0, %x : (tensor<16x1xf32>, tensor<1x4xf32>) -> tensor<16x4xf32>
  %p = clifford.geometric_product <3, 0, 1> %m, %m : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  return %p : tensor<16x4xf32>
}

// -----

// In Cl(3,0) a vector squares to a scalar: e1 e1 = 1, not zero.
// CHECK-LABEL: func @no_zero_euclidean_square
//       CHECK:   %[[P:.*]] = clifford.geometric_product <3, 0, 0> %[[M:[^,]*]], %[[M]] {lhs_blades = #clifford.blades<1>, rhs_blades = #clifford.blades<1>}
//       CHECK:   return %[[P]]
func.func @no_zero_euclidean_square(%x: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %e1 = arith.constant dense<[[0.0], [1.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0]]> : tensor<8x1xf32>
  %m = uta.mul %e1, %x : (tensor<8x1xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  %p = clifford.geometric_product <3, 0, 0> %m, %m : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %p : tensor<8x4xf32>
}

// -----

// Any clifford op of a zero is zero, here a reverse of a projection onto
// grades that the input cannot have.
// CHECK-LABEL: func @reverse_of_zero_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.reverse
//       CHECK:   return %[[Z]]
func.func @reverse_of_zero_is_zero(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %v grades [2] : tensor<8x16xf32>
  %r = clifford.reverse <3, 0, 0> %b : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

//===----------------------------------------------------------------------===//
// Operand blades recorded on products
//===----------------------------------------------------------------------===//

// -----

// A vector times a bivector: each operand's blades are recorded.
// CHECK-LABEL: func @record_vector_times_bivector
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2, 3>, rhs_blades = #clifford.blades<4, 5, 6>}
func.func @record_vector_times_bivector(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// Only the operand whose blades are known gets a set; an unknown operand
// (every blade) records nothing.
// CHECK-LABEL: func @record_one_operand
//       CHECK:   clifford.outer_product <3, 0, 0> %{{.*}}, %{{.*}} {rhs_blades = #clifford.blades<0, 4, 5, 6>}
func.func @record_one_operand(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x16xf32>
  %p = clifford.outer_product <3, 0, 0> %x, %e : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// No operand with known blades: nothing is recorded.
// CHECK-LABEL: func @no_record_unknown_operands
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @no_record_unknown_operands(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %p = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A set already on the op is narrowed by what the analysis knows: <0, 1, 2>
// and the vector <1, 2, 3> leave <1, 2>; a set that the analysis cannot
// narrow stays.
// CHECK-LABEL: func @record_narrows_existing_set
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2>, rhs_blades = #clifford.blades<7>}
func.func @record_narrows_existing_set(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %y {lhs_blades = #clifford.blades<0, 1, 2>, rhs_blades = #clifford.blades<7>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// The sets recorded on a product are its blades' promise: the product of
// the vectors <1, 2> (e1, e2) with itself has blades 0 (e1 e1, e2 e2) and 4
// (e1 e2, e2 e1) only, so its grade-1 and grade-3 parts are zero.
// CHECK-LABEL: func @recorded_sets_narrow_the_result
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//       CHECK:   return %[[Z]]
func.func @recorded_sets_narrow_the_result(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %p = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<1, 2>, rhs_blades = #clifford.blades<1, 2>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = clifford.grade_project <3, 0, 0> %p grades [1, 3] : tensor<8x16xf32>
  return %q : tensor<8x16xf32>
}

// -----

// sandwich records its rotor (even: <0, 4, 5, 6>) and input (vector).
// CHECK-LABEL: func @record_sandwich
//       CHECK:   clifford.sandwich <3, 0, 0> %{{.*}}, %{{.*}} {input_blades = #clifford.blades<1, 2, 3>, rotor_blades = #clifford.blades<0, 4, 5, 6>}
func.func @record_sandwich(%r: tensor<8x1xf32>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = clifford.grade_project <3, 0, 0> %r grades [0, 2] : tensor<8x1xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x64xf32>
  %y = clifford.sandwich <3, 0, 0> %e, %v : (tensor<8x1xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// A rotor (even) sandwiching a vector gives a vector: r v reverse(r) has
// grades 1 and 3 by the Cayley table, so its even part is zero.
// CHECK-LABEL: func @sandwich_of_vector_has_no_even_part
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x64xf32>
//       CHECK:   return %[[Z]]
func.func @sandwich_of_vector_has_no_even_part(%r: tensor<8x1xf32>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = clifford.grade_project <3, 0, 0> %r grades [0, 2] : tensor<8x1xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x64xf32>
  %y = clifford.sandwich <3, 0, 0> %e, %v : (tensor<8x1xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x64xf32>
  return %p : tensor<8x64xf32>
}

// -----

// The layer products record their operands too.
// CHECK-LABEL: func @record_layer_products
//       CHECK:   clifford.weighted_product <2, 0, 0> %{{.*}}, %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2>, rhs_blades = #clifford.blades<0, 3>}
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<0, 3>}
func.func @record_layer_products(%x: tensor<4x2x8xf32>, %y: tensor<4x2x8xf32>, %w: tensor<8x10xf32>, %u: tensor<10x8x8xf32>) -> (tensor<4x2x8xf32>, tensor<4x2x8xf32>) {
  %v = clifford.grade_project <2, 0, 0> %x grades [1] : tensor<4x2x8xf32>
  %e = clifford.grade_project <2, 0, 0> %y grades [0, 2] : tensor<4x2x8xf32>
  %a = clifford.weighted_product <2, 0, 0> %v, %e, %w : (tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<8x10xf32>) -> tensor<4x2x8xf32>
  %b = clifford.fc_product <2, 0, 0> %e, %x, %u : (tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<10x8x8xf32>) -> tensor<4x2x8xf32>
  return %a, %b : tensor<4x2x8xf32>, tensor<4x2x8xf32>
}

// -----

// grade_rms_norm divides each blade by a positive root when epsilon > 0, so
// zeros stay zeros; with epsilon = 0 a grade that is all zero divides 0 by
// 0, so nothing is known after it.
// CHECK-LABEL: func @record_through_grade_rms_norm
//       CHECK:   clifford.geometric_product <2, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2>}
//       CHECK:   clifford.geometric_product <2, 0, 0> %{{.*}}, %{{.*}} : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
func.func @record_through_grade_rms_norm(%x: tensor<4x2x8xf32>, %y: tensor<4x2x8xf32>) -> (tensor<4x2x8xf32>, tensor<4x2x8xf32>) {
  %v = clifford.grade_project <2, 0, 0> %x grades [1] : tensor<4x2x8xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %v : tensor<4x2x8xf32>
  %m = clifford.grade_rms_norm <2, 0, 0> %v {epsilon = 0.0 : f32} : tensor<4x2x8xf32>
  %a = clifford.geometric_product <2, 0, 0> %n, %y : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  %b = clifford.geometric_product <2, 0, 0> %m, %y : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %a, %b : tensor<4x2x8xf32>, tensor<4x2x8xf32>
}

// -----

// A set already on an adjoint is narrowed by what the analysis knows.
// CHECK-LABEL: func @adjoint_narrows_existing_sets
//       CHECK:   clifford.product_adjoint <3, 0, 0> outer rhs %{{.*}}, %{{.*}} {cotangent_blades = #clifford.blades<4, 5>, other_blades = #clifford.blades<1, 2, 3>}
func.func @adjoint_narrows_existing_sets(%g: tensor<8x16xf32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %b = clifford.grade_project <3, 0, 0> %g grades [2] : tensor<8x16xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %d = clifford.product_adjoint <3, 0, 0> outer rhs %b, %v {cotangent_blades = #clifford.blades<0, 4, 5>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}

// -----

// Results proven zero by the recorded sets become zero constants: the left
// contraction x ⌋ y of a vector y lands on grades 0 and 1, never on the
// bivectors that the cotangent is made of; a scalar product's cotangent
// recorded as zero (<>) gives a zero gradient.
// CHECK-LABEL: func @adjoint_proven_zero
//       CHECK:   %[[Z0:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//       CHECK:   %[[Z1:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//   CHECK-NOT:   clifford.product_adjoint
//       CHECK:   return %[[Z0]], %[[Z1]]
func.func @adjoint_proven_zero(%g: tensor<8x16xf32>, %x: tensor<8x16xf32>, %s: tensor<1x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %b = clifford.grade_project <3, 0, 0> %g grades [2] : tensor<8x16xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %d = clifford.product_adjoint <3, 0, 0> left_contraction lhs %b, %v : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = clifford.product_adjoint <3, 0, 0> scalar rhs %s, %x {cotangent_blades = #clifford.blades<>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %d, %e : tensor<8x16xf32>, tensor<8x16xf32>
}

//===----------------------------------------------------------------------===//
// Blades through uta ops
//===----------------------------------------------------------------------===//

// -----

// add and sub unite their operands' blades; mul by a tensor broadcast over
// the blade axis (size 1 there, or no such axis) keeps them; neg keeps them.
// CHECK-LABEL: func @record_through_uta_ops
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>, rhs_blades = #clifford.blades<1, 2, 3>}
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>, rhs_blades = #clifford.blades<4, 5, 6>}
func.func @record_through_uta_ops(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %s: tensor<1x16xf32>, %t: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x16xf32>
  %sum = uta.add %v, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %vs = uta.mul %v, %s : (tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<8x16xf32>
  %bt = uta.mul %t, %b : (tensor<16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %nb = uta.neg %bt : tensor<8x16xf32>
  %dif = uta.sub %v, %nb : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %sum, %vs : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = clifford.geometric_product <3, 0, 0> %dif, %nb : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p, %q : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// mul intersects: a vector times an even multivector, entry by entry, is
// zero.
// CHECK-LABEL: func @mul_of_disjoint_blades_is_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
//       CHECK:   return %[[Z]]
func.func @mul_of_disjoint_blades_is_zero(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x16xf32>
  %e = clifford.grade_project <3, 0, 0> %y grades [0, 2] : tensor<8x16xf32>
  %m = uta.mul %v, %e : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = clifford.reverse <3, 0, 0> %m : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// transpose moves the blade axis: blades-last vectors, transposed to
// blades-first, are still vectors.
// CHECK-LABEL: func @record_through_transpose
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2, 3>}
func.func @record_through_transpose(%x: tensor<16x8xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] {blade_axis = 1} : tensor<16x8xf32>
  %t = uta.transpose %v [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %t, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p : tensor<8x16xf32>
}

// -----

// A multivector broadcast from one entry on the blade axis says nothing
// about single blades; a reshape is not followed.
// CHECK-LABEL: func @no_record_through_stretch_or_reshape
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @no_record_through_stretch_or_reshape(%x: tensor<1x16xf32>, %y: tensor<8x16xf32>, %z: tensor<8x2x8xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %b = uta.broadcast_to %x : tensor<1x16xf32> -> tensor<8x16xf32>
  %p = clifford.geometric_product <3, 0, 0> %b, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = clifford.grade_project <3, 0, 0> %z grades [1] : tensor<8x2x8xf32>
  %r = uta.reshape %v : tensor<8x2x8xf32> -> tensor<8x16xf32>
  %q = clifford.geometric_product <3, 0, 0> %r, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %p, %q : tensor<8x16xf32>, tensor<8x16xf32>
}
