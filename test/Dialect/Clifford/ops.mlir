// Round trip of every clifford op: custom form -> custom form, custom form ->
// generic form -> custom form, and the generic form with `{...}` attributes
// and defaults left out (last section).
//
// RUN: uta-opt %s | uta-opt | FileCheck %s
// RUN: uta-opt %s --mlir-print-op-generic | uta-opt | FileCheck %s
// RUN: uta-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @geometric_product
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>, %[[Y:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[Z:.+]] = clifford.geometric_product <3, 0, 0> %[[X]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   return %[[Z]]
// GENERIC-LABEL: sym_name = "geometric_product"
//       GENERIC:   "clifford.geometric_product"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @geometric_product(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// A non-default blade axis is printed; one rotor broadcasts over the batch.
// CHECK-LABEL: func @geometric_product_blades_last
//  CHECK-SAME:   (%[[R:[^:]+]]: tensor<1x4xf32>, %[[B:[^:]+]]: tensor<32x4xf32>)
//       CHECK:   %[[Z:.+]] = clifford.geometric_product <2, 0, 0> %[[R]], %[[B]] {blade_axis = 1 : i64} : (tensor<1x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
//       CHECK:   return %[[Z]]
// GENERIC-LABEL: sym_name = "geometric_product_blades_last"
//       GENERIC:   "clifford.geometric_product"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<2, 0, 0>, blade_axis = 1 : i64}>
func.func @geometric_product_blades_last(%r: tensor<1x4xf32>, %b: tensor<32x4xf32>) -> tensor<32x4xf32> {
  %z = clifford.geometric_product <2, 0, 0> %r, %b {blade_axis = 1} : (tensor<1x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
  return %z : tensor<32x4xf32>
}

// Both operands broadcast along different axes; the full attribute spelling
// is accepted in the custom form too and printed short.
// CHECK-LABEL: func @geometric_product_two_way_broadcast
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<16x1x5xf32>, %[[Y:[^:]+]]: tensor<16x3x1xf32>)
//       CHECK:   %[[Z:.+]] = clifford.geometric_product <3, 0, 1> %[[X]], %[[Y]] : (tensor<16x1x5xf32>, tensor<16x3x1xf32>) -> tensor<16x3x5xf32>
func.func @geometric_product_two_way_broadcast(%x: tensor<16x1x5xf32>, %y: tensor<16x3x1xf32>) -> tensor<16x3x5xf32> {
  %z = clifford.geometric_product #clifford.algebra<3, 0, 1> %x, %y : (tensor<16x1x5xf32>, tensor<16x3x1xf32>) -> tensor<16x3x5xf32>
  return %z : tensor<16x3x5xf32>
}

// A single multivector (rank 1) in the smallest algebra.
// CHECK-LABEL: func @geometric_product_rank1
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<2xf32>, %[[Y:[^:]+]]: tensor<2xf32>)
//       CHECK:   clifford.geometric_product <0, 1, 0> %[[X]], %[[Y]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
func.func @geometric_product_rank1(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %z = clifford.geometric_product <0, 1, 0> %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %z : tensor<2xf32>
}

// CHECK-LABEL: func @outer_product
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>, %[[Y:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[Z:.+]] = clifford.outer_product <3, 0, 0> %[[X]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   return %[[Z]]
func.func @outer_product(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %z = clifford.outer_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// CHECK-LABEL: func @left_contraction
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<1x16xf32>, %[[Y:[^:]+]]: tensor<16x16xf32>)
//       CHECK:   %[[Z:.+]] = clifford.left_contraction <1, 3, 0> %[[X]], %[[Y]] {blade_axis = 1 : i64} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
//       CHECK:   return %[[Z]]
func.func @left_contraction(%x: tensor<1x16xf32>, %y: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %z = clifford.left_contraction <1, 3, 0> %x, %y {blade_axis = 1} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %z : tensor<16x16xf32>
}

// CHECK-LABEL: func @scalar_product
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>, %[[Y:[^:]+]]: tensor<8x1xf32>)
//       CHECK:   %[[S:.+]] = clifford.scalar_product <3, 0, 0> %[[X]], %[[Y]] : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<1x16xf32>
//       CHECK:   return %[[S]]
func.func @scalar_product(%x: tensor<8x16xf32>, %y: tensor<8x1xf32>) -> tensor<1x16xf32> {
  %s = clifford.scalar_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<1x16xf32>
  return %s : tensor<1x16xf32>
}

// CHECK-LABEL: func @sandwich
//  CHECK-SAME:   (%[[R:[^:]+]]: tensor<8x1xf32>, %[[X:[^:]+]]: tensor<8x1024xf32>)
//       CHECK:   %[[Y:.+]] = clifford.sandwich <3, 0, 0> %[[R]], %[[X]] : (tensor<8x1xf32>, tensor<8x1024xf32>) -> tensor<8x1024xf32>
//       CHECK:   return %[[Y]]
// GENERIC-LABEL: sym_name = "sandwich"
//       GENERIC:   "clifford.sandwich"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x1xf32>, tensor<8x1024xf32>) -> tensor<8x1024xf32>
func.func @sandwich(%r: tensor<8x1xf32>, %x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %y = clifford.sandwich <3, 0, 0> %r, %x : (tensor<8x1xf32>, tensor<8x1024xf32>) -> tensor<8x1024xf32>
  return %y : tensor<8x1024xf32>
}

//===----------------------------------------------------------------------===//
// Involutions, projection, dual and gate
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @involutions
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[A:.+]] = clifford.reverse <3, 0, 0> %[[X]] : tensor<8x16xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_involution <3, 0, 0> %[[A]] : tensor<8x16xf32>
//       CHECK:   %[[C:.+]] = clifford.conjugate <3, 0, 0> %[[B]] : tensor<8x16xf32>
//       CHECK:   return %[[C]]
// GENERIC-LABEL: sym_name = "involutions"
//       GENERIC:   "clifford.reverse"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
//       GENERIC:   "clifford.grade_involution"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
//       GENERIC:   "clifford.conjugate"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @involutions(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>
  %b = clifford.grade_involution <3, 0, 0> %a : tensor<8x16xf32>
  %c = clifford.conjugate <3, 0, 0> %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// CHECK-LABEL: func @reverse_blades_last
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8xf32>)
//       CHECK:   %[[R:.+]] = clifford.reverse <3, 0, 0> %[[X]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   return %[[R]]
func.func @reverse_blades_last(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = clifford.reverse <3, 0, 0> %x {blade_axis = 1} : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func @grade_project
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>)
//       CHECK:   %[[E:.+]] = clifford.grade_project <3, 0, 0> %[[X]] grades [0, 2] : tensor<8x16xf32>
//       CHECK:   return %[[E]]
// GENERIC-LABEL: sym_name = "grade_project"
//       GENERIC:   "clifford.grade_project"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, grades = array<i64: 0, 2>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @grade_project(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x16xf32>
  return %e : tensor<8x16xf32>
}

// Grade n (the pseudoscalar) of the projective algebra, blades last.
// CHECK-LABEL: func @grade_project_top
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<3x16xf32>)
//       CHECK:   clifford.grade_project <3, 0, 1> %[[X]] grades [4] {blade_axis = 1 : i64} : tensor<3x16xf32>
func.func @grade_project_top(%x: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %e = clifford.grade_project <3, 0, 1> %x grades [4] {blade_axis = 1} : tensor<3x16xf32>
  return %e : tensor<3x16xf32>
}

// CHECK-LABEL: func @dual
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<16x2xf32>)
//       CHECK:   %[[D:.+]] = clifford.dual <3, 1, 0> %[[X]] : tensor<16x2xf32>
//       CHECK:   return %[[D]]
func.func @dual(%x: tensor<16x2xf32>) -> tensor<16x2xf32> {
  %d = clifford.dual <3, 1, 0> %x : tensor<16x2xf32>
  return %d : tensor<16x2xf32>
}

// CHECK-LABEL: func @scalar_gate
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x4x16xf32>)
//       CHECK:   %[[G:.+]] = clifford.scalar_gate <3, 0, 0> %[[X]] : tensor<8x4x16xf32>
//       CHECK:   return %[[G]]
func.func @scalar_gate(%x: tensor<8x4x16xf32>) -> tensor<8x4x16xf32> {
  %g = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4x16xf32>
  return %g : tensor<8x4x16xf32>
}

//===----------------------------------------------------------------------===//
// Flash Clifford layers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @weighted_product
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<32x20xf32>)
//       CHECK:   %[[Z:.+]] = clifford.weighted_product <3, 0, 0> %[[X]], %[[Y]], %[[W]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
//       CHECK:   return %[[Z]]
// GENERIC-LABEL: sym_name = "weighted_product"
//       GENERIC:   "clifford.weighted_product"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}>
func.func @weighted_product(%x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<32x20xf32>) -> tensor<8x64x32xf32> {
  %z = clifford.weighted_product <3, 0, 0> %x, %y, %w : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
  return %z : tensor<8x64x32xf32>
}

// Cl(2,0) has 10 paths.
// CHECK-LABEL: func @weighted_product_cl2
//       CHECK:   clifford.weighted_product <2, 0, 0> %{{.+}}, %{{.+}}, %{{.+}} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
func.func @weighted_product_cl2(%x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %z = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  return %z : tensor<4x3x5xf32>
}

// CHECK-LABEL: func @fc_product
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x32x48xf32>)
//       CHECK:   %[[Z:.+]] = clifford.fc_product <3, 0, 0> %[[X]], %[[Y]], %[[W]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x48xf32>
//       CHECK:   return %[[Z]]
func.func @fc_product(%x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x48xf32> {
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x48xf32>
  return %z : tensor<8x64x48xf32>
}

// K-major weights, [paths, out, in]: the attribute round-trips.
// CHECK-LABEL: func @fc_product_transposed
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x48x32xf32>)
//       CHECK:   clifford.fc_product <3, 0, 0> %[[X]], %[[Y]], %[[W]] {transpose_weights = true} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x48x32xf32>) -> tensor<8x64x48xf32>
func.func @fc_product_transposed(%x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x48x32xf32>) -> tensor<8x64x48xf32> {
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x48x32xf32>) -> tensor<8x64x48xf32>
  return %z : tensor<8x64x48xf32>
}

// The gate operand, and the op that gives FCGP's gates in its form.
// CHECK-LABEL: func @fc_product_gated
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x32x48xf32>)
//       CHECK:   %[[G:.+]] = clifford.pair_gate_factor <3, 0, 0> %[[X]], %[[Y]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<64x32xf32>
//       CHECK:   clifford.fc_product <3, 0, 0> %[[X]], %[[Y]], %[[W]] gate %[[G]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>, tensor<64x32xf32>) -> tensor<8x64x48xf32>
// GENERIC-LABEL: sym_name = "fc_product_gated"
//       GENERIC:   "clifford.pair_gate_factor"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<64x32xf32>
//       GENERIC:   "clifford.fc_product"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, transpose_weights = false}> : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>, tensor<64x32xf32>) -> tensor<8x64x48xf32>
func.func @fc_product_gated(%x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x48xf32> {
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %y : (tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<64x32xf32>
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w gate %g : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>, tensor<64x32xf32>) -> tensor<8x64x48xf32>
  return %z : tensor<8x64x48xf32>
}

// The default epsilon is left out when printing; another one is kept.
// CHECK-LABEL: func @grade_rms_norm
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x64x32xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_rms_norm <3, 0, 0> %[[X]] : tensor<8x64x32xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_rms_norm <3, 0, 0> %[[A]] {epsilon = 9.99999974E-6 : f32} : tensor<8x64x32xf32>
//       CHECK:   return %[[B]]
// GENERIC-LABEL: sym_name = "grade_rms_norm"
//       GENERIC:   "clifford.grade_rms_norm"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, epsilon = 9.99999997E-7 : f32}>
//       GENERIC:   "clifford.grade_rms_norm"(%{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, epsilon = 9.99999974E-6 : f32}>
func.func @grade_rms_norm(%x: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  %a = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x64x32xf32>
  %b = clifford.grade_rms_norm <3, 0, 0> %a {epsilon = 1.0e-05 : f32} : tensor<8x64x32xf32>
  return %b : tensor<8x64x32xf32>
}

// The Flash Clifford SGP layer as a composition: gates, product, grade norm.
// CHECK-LABEL: func @sgp_layer
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x4x16xf32>, %[[Y:[^:]+]]: tensor<8x4x16xf32>, %[[W:[^:]+]]: tensor<16x20xf32>)
//       CHECK:   %[[GX:.+]] = clifford.scalar_gate <3, 0, 0> %[[X]]
//       CHECK:   %[[GY:.+]] = clifford.scalar_gate <3, 0, 0> %[[Y]]
//       CHECK:   %[[P:.+]] = clifford.weighted_product <3, 0, 0> %[[GX]], %[[GY]], %[[W]]
//       CHECK:   %[[N:.+]] = clifford.grade_rms_norm <3, 0, 0> %[[P]]
//       CHECK:   return %[[N]]
func.func @sgp_layer(%x: tensor<8x4x16xf32>, %y: tensor<8x4x16xf32>, %w: tensor<16x20xf32>) -> tensor<8x4x16xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4x16xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4x16xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w : (tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<16x20xf32>) -> tensor<8x4x16xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4x16xf32>
  return %n : tensor<8x4x16xf32>
}

//===----------------------------------------------------------------------===//
// Adjoints of the products
//===----------------------------------------------------------------------===//

// Every product kind, either operand; the cotangent and the other operand
// broadcast into the result.
// CHECK-LABEL: func @product_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x1x5xf32>, %[[Y:[^:]+]]: tensor<8x3x1xf32>, %[[S:[^:]+]]: tensor<1x3x5xf32>)
//       CHECK:   %[[A:.+]] = clifford.product_adjoint <3, 0, 0> geometric lhs %[[G]], %[[Y]] : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
//       CHECK:   %[[B:.+]] = clifford.product_adjoint <3, 0, 0> outer rhs %[[G]], %[[Y]] : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
//       CHECK:   %[[C:.+]] = clifford.product_adjoint <3, 0, 0> left_contraction lhs %[[G]], %[[Y]] : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
//       CHECK:   %[[D:.+]] = clifford.product_adjoint <3, 0, 0> scalar rhs %[[S]], %[[Y]] : (tensor<1x3x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
//       CHECK:   return %[[A]], %[[B]], %[[C]], %[[D]]
// GENERIC-LABEL: sym_name = "product_adjoint"
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 0 : i32, product = 0 : i32}>
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32, product = 1 : i32}>
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 0 : i32, product = 2 : i32}>
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32, product = 3 : i32}>
func.func @product_adjoint(%g: tensor<8x1x5xf32>, %y: tensor<8x3x1xf32>, %s: tensor<1x3x5xf32>) -> (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>) {
  %a = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
  %b = clifford.product_adjoint <3, 0, 0> outer rhs %g, %y : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
  %c = clifford.product_adjoint <3, 0, 0> left_contraction lhs %g, %y : (tensor<8x1x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
  %d = clifford.product_adjoint <3, 0, 0> scalar rhs %s, %y : (tensor<1x3x5xf32>, tensor<8x3x1xf32>) -> tensor<8x3x5xf32>
  return %a, %b, %c, %d : tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>
}

// Blades last in the projective algebra: the non-default blade axis is
// printed.
// CHECK-LABEL: func @product_adjoint_blades_last
//       CHECK:   clifford.product_adjoint <3, 0, 1> geometric rhs %{{.+}}, %{{.+}} {blade_axis = 1 : i64} : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
func.func @product_adjoint_blades_last(%g: tensor<4x16xf32>, %x: tensor<1x16xf32>) -> tensor<4x16xf32> {
  %dy = clifford.product_adjoint <3, 0, 1> geometric rhs %g, %x {blade_axis = 1} : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  return %dy : tensor<4x16xf32>
}

// CHECK-LABEL: func @weighted_product_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<32x20xf32>)
//       CHECK:   %[[A:.+]] = clifford.weighted_product_adjoint <3, 0, 0> lhs %[[G]], %[[Y]], %[[W]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
//       CHECK:   %[[B:.+]] = clifford.weighted_product_adjoint <3, 0, 0> rhs %[[G]], %[[Y]], %[[W]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "weighted_product_adjoint"
//       GENERIC:   "clifford.weighted_product_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 0 : i32}>
//       GENERIC:   "clifford.weighted_product_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32}>
func.func @weighted_product_adjoint(%g: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<32x20xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>) {
  %a = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
  %b = clifford.weighted_product_adjoint <3, 0, 0> rhs %g, %y, %w : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
  return %a, %b : tensor<8x64x32xf32>, tensor<8x64x32xf32>
}

// CHECK-LABEL: func @fc_product_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x48xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x32x48xf32>, %[[T:[^:]+]]: tensor<20x48x32xf32>)
//       CHECK:   %[[A:.+]] = clifford.fc_product_adjoint <3, 0, 0> lhs %[[G]], %[[Y]], %[[W]] : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
//       CHECK:   %[[B:.+]] = clifford.fc_product_adjoint <3, 0, 0> rhs %[[G]], %[[Y]], %[[T]] {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x48x32xf32>) -> tensor<8x64x32xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "fc_product_adjoint"
//       GENERIC:   "clifford.fc_product_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 0 : i32, transpose_weights = false}>
//       GENERIC:   "clifford.fc_product_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32, transpose_weights = true}>
func.func @fc_product_adjoint(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>, %t: tensor<20x48x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>) {
  %a = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  %b = clifford.fc_product_adjoint <3, 0, 0> rhs %g, %y, %t {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x48x32xf32>) -> tensor<8x64x32xf32>
  return %a, %b : tensor<8x64x32xf32>, tensor<8x64x32xf32>
}

// CHECK-LABEL: func @fc_product_weight_gradient
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x48xf32>, %[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>)
//       CHECK:   %[[A:.+]] = clifford.fc_product_weight_gradient <3, 0, 0> %[[G]], %[[X]], %[[Y]] : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
//       CHECK:   %[[B:.+]] = clifford.fc_product_weight_gradient <3, 0, 0> %[[G]], %[[X]], %[[Y]] {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x48x32xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "fc_product_weight_gradient"
//       GENERIC:   "clifford.fc_product_weight_gradient"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_runs = 1 : i64, blade_axis = 0 : i64, transpose_cotangent = false, transpose_pairs = false, transpose_weights = false}>
//       GENERIC:   "clifford.fc_product_weight_gradient"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_runs = 1 : i64, blade_axis = 0 : i64, transpose_cotangent = false, transpose_pairs = false, transpose_weights = true}>
func.func @fc_product_weight_gradient(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>) -> (tensor<20x32x48xf32>, tensor<20x48x32xf32>) {
  %a = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
  %b = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x48x32xf32>
  return %a, %b : tensor<20x32x48xf32>, tensor<20x48x32xf32>
}

// Four runs of the batch: a leading result axis of partial gradients.
// CHECK-LABEL: func @fc_product_weight_gradient_runs
//       CHECK:   clifford.fc_product_weight_gradient <3, 0, 0> %{{.+}}, %{{.+}}, %{{.+}} {batch_runs = 4 : i64, transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<4x20x48x32xf32>
// GENERIC-LABEL: sym_name = "fc_product_weight_gradient_runs"
//       GENERIC:   "clifford.fc_product_weight_gradient"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_runs = 4 : i64, blade_axis = 0 : i64, transpose_cotangent = false, transpose_pairs = false, transpose_weights = true}>
func.func @fc_product_weight_gradient_runs(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<4x20x48x32xf32> {
  %a = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {batch_runs = 4, transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<4x20x48x32xf32>
  return %a : tensor<4x20x48x32xf32>
}

// Every operand batch-contiguous: pairs [2^n, Fin, B], cotangent
// [2^n, Fout, B].
// CHECK-LABEL: func @fc_product_weight_gradient_k_major
//       CHECK:   clifford.fc_product_weight_gradient <3, 0, 0> %{{.+}}, %{{.+}}, %{{.+}} {transpose_cotangent = true, transpose_pairs = true} : (tensor<8x48x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) -> tensor<20x32x48xf32>
// GENERIC-LABEL: sym_name = "fc_product_weight_gradient_k_major"
//       GENERIC:   "clifford.fc_product_weight_gradient"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_runs = 1 : i64, blade_axis = 0 : i64, transpose_cotangent = true, transpose_pairs = true, transpose_weights = false}>
func.func @fc_product_weight_gradient_k_major(%g: tensor<8x48x64xf32>, %x: tensor<8x32x64xf32>) -> tensor<20x32x48xf32> {
  %a = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_cotangent = true, transpose_pairs = true} : (tensor<8x48x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) -> tensor<20x32x48xf32>
  return %a : tensor<20x32x48xf32>
}

// Batch-contiguous pairs [2^n, Fin, B].
// CHECK-LABEL: func @fc_product_weight_gradient_pairs
//       CHECK:   clifford.fc_product_weight_gradient <3, 0, 0> %{{.+}}, %{{.+}}, %{{.+}} {transpose_pairs = true} : (tensor<8x64x48xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) -> tensor<20x32x48xf32>
// GENERIC-LABEL: sym_name = "fc_product_weight_gradient_pairs"
//       GENERIC:   "clifford.fc_product_weight_gradient"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_runs = 1 : i64, blade_axis = 0 : i64, transpose_cotangent = false, transpose_pairs = true, transpose_weights = false}>
func.func @fc_product_weight_gradient_pairs(%g: tensor<8x64x48xf32>, %x: tensor<8x32x64xf32>) -> tensor<20x32x48xf32> {
  %a = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_pairs = true} : (tensor<8x64x48xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) -> tensor<20x32x48xf32>
  return %a : tensor<20x32x48xf32>
}

// CHECK-LABEL: func @fc_product_pairs
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x48xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>, %[[W:[^:]+]]: tensor<20x32x48xf32>, %[[V:[^:]+]]: tensor<20x48x32xf32>)
//       CHECK:   %[[T:.+]] = clifford.fc_product_pair_cotangents <3, 0, 0> %[[G]], %[[W]] : (tensor<8x64x48xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
//       CHECK:   %[[U:.+]] = clifford.fc_product_pair_cotangents <3, 0, 0> %[[G]], %[[V]] {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<20x48x32xf32>) -> tensor<44x64x32xf32>
//       CHECK:   %[[A:.+]] = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %[[T]], %[[Y]] : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
//       CHECK:   %[[B:.+]] = clifford.fc_product_pair_adjoint <3, 0, 0> rhs %[[U]], %[[Y]] : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "fc_product_pairs"
//       GENERIC:   "clifford.fc_product_pair_cotangents"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, transpose_weights = false}>
//       GENERIC:   "clifford.fc_product_pair_cotangents"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, transpose_weights = true}>
//       GENERIC:   "clifford.fc_product_pair_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 0 : i32}>
//       GENERIC:   "clifford.fc_product_pair_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32}>
func.func @fc_product_pairs(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>, %v: tensor<20x48x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>) {
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x64x48xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
  %u = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %v {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<20x48x32xf32>) -> tensor<44x64x32xf32>
  %a = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %t, %y : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  %b = clifford.fc_product_pair_adjoint <3, 0, 0> rhs %u, %y : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %a, %b : tensor<8x64x32xf32>, tensor<8x64x32xf32>
}

// Both adjoints from one pairs tensor: two results, each of x's type.
// CHECK-LABEL: func @fc_product_pair_adjoints
//  CHECK-SAME:   (%[[T:[^:]+]]: tensor<44x64x32xf32>, %[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>)
//       CHECK:   %[[DX:[^ ]+]], %[[DY:[^ ]+]] = clifford.fc_product_pair_adjoints <3, 0, 0> %[[T]], %[[X]], %[[Y]] : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
//       CHECK:   return %[[DX]], %[[DY]]
// GENERIC-LABEL: sym_name = "fc_product_pair_adjoints"
//       GENERIC:   "clifford.fc_product_pair_adjoints"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}> : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
func.func @fc_product_pair_adjoints(%t: tensor<44x64x32xf32>, %x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>) {
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %y : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
  return %dx, %dy : tensor<8x64x32xf32>, tensor<8x64x32xf32>
}

// The adjoints' optional blade sets of the cotangent and the other operand;
// a scalar product's cotangent has blade 0 only.
// CHECK-LABEL: func @adjoint_blade_sets
//       CHECK:   clifford.product_adjoint <3, 0, 0> geometric lhs %{{.+}}, %{{.+}} {cotangent_blades = #clifford.blades<4, 5, 6>, other_blades = #clifford.blades<1, 2, 3>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
//       CHECK:   clifford.product_adjoint <3, 0, 0> scalar rhs %{{.+}}, %{{.+}} {cotangent_blades = #clifford.blades<0>, other_blades = #clifford.blades<>} : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
//       CHECK:   clifford.weighted_product_adjoint <3, 0, 0> rhs %{{.+}}, %{{.+}}, %{{.+}} {other_blades = #clifford.blades<0, 7>} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
// GENERIC-LABEL: sym_name = "adjoint_blade_sets"
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, cotangent_blades = #clifford.blades<4, 5, 6>, operand = 0 : i32, other_blades = #clifford.blades<1, 2, 3>, product = 0 : i32}>
//       GENERIC:   "clifford.product_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, cotangent_blades = #clifford.blades<0>, operand = 1 : i32, other_blades = #clifford.blades<>, product = 3 : i32}>
//       GENERIC:   "clifford.weighted_product_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, operand = 1 : i32, other_blades = #clifford.blades<0, 7>}>
func.func @adjoint_blade_sets(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>, %s: tensor<1x4xf32>, %h: tensor<8x64x32xf32>, %w: tensor<32x20xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x64x32xf32>) {
  %a = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y {cotangent_blades = #clifford.blades<4, 5, 6>, other_blades = #clifford.blades<1, 2, 3>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %b = clifford.product_adjoint <3, 0, 0> scalar rhs %s, %y {cotangent_blades = #clifford.blades<0>, other_blades = #clifford.blades<>} : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = clifford.weighted_product_adjoint <3, 0, 0> rhs %h, %h, %w {other_blades = #clifford.blades<0, 7>} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> tensor<8x64x32xf32>
  return %a, %b, %c : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x64x32xf32>
}

// The result has one entry per path (20 in Cl(3,0)) where the operands have
// blades; with batch_chunk, one per chunk of the batch (ceil(64 / 24) = 3).
// CHECK-LABEL: func @path_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x32xf32>, %[[X:[^:]+]]: tensor<8x64x32xf32>, %[[Y:[^:]+]]: tensor<8x64x32xf32>)
//       CHECK:   %[[T:.+]] = clifford.path_adjoint <3, 0, 0> %[[G]], %[[X]], %[[Y]] : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x64x32xf32>
//       CHECK:   %[[C:.+]] = clifford.path_adjoint <3, 0, 0> %[[G]], %[[X]], %[[Y]] {batch_chunk = 24 : i64} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x3x32xf32>
//       CHECK:   return %[[T]], %[[C]]
// GENERIC-LABEL: sym_name = "path_adjoint"
//       GENERIC:   "clifford.path_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_chunk = 1 : i64, blade_axis = 0 : i64}>
//       GENERIC:   "clifford.path_adjoint"(%{{.+}}, %{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, batch_chunk = 24 : i64, blade_axis = 0 : i64}>
func.func @path_adjoint(%g: tensor<8x64x32xf32>, %x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>) -> (tensor<20x64x32xf32>, tensor<20x3x32xf32>) {
  %t = clifford.path_adjoint <3, 0, 0> %g, %x, %y : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x64x32xf32>
  %c = clifford.path_adjoint <3, 0, 0> %g, %x, %y {batch_chunk = 24} : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x3x32xf32>
  return %t, %c : tensor<20x64x32xf32>, tensor<20x3x32xf32>
}

// Both operands' gates on one: any rank, blade axis anywhere.
// CHECK-LABEL: func @pair_gate
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x4x16xf32>, %[[Y:[^:]+]]: tensor<8x4x16xf32>, %[[H:[^:]+]]: tensor<3x16xf32>, %[[Z:[^:]+]]: tensor<3x16xf32>)
//       CHECK:   %[[A:.+]] = clifford.pair_gate <3, 0, 0> %[[X]], %[[Y]] : tensor<8x4x16xf32>
//       CHECK:   %[[B:.+]] = clifford.pair_gate <3, 0, 1> %[[H]], %[[Z]] {blade_axis = 1 : i64} : tensor<3x16xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "pair_gate"
//       GENERIC:   "clifford.pair_gate"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}>
//       GENERIC:   "clifford.pair_gate"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 1>, blade_axis = 1 : i64}>
func.func @pair_gate(%x: tensor<8x4x16xf32>, %y: tensor<8x4x16xf32>, %h: tensor<3x16xf32>, %z: tensor<3x16xf32>) -> (tensor<8x4x16xf32>, tensor<3x16xf32>) {
  %a = clifford.pair_gate <3, 0, 0> %x, %y : tensor<8x4x16xf32>
  %b = clifford.pair_gate <3, 0, 1> %h, %z {blade_axis = 1} : tensor<3x16xf32>
  return %a, %b : tensor<8x4x16xf32>, tensor<3x16xf32>
}

// The gate's adjoint: any rank, blade axis anywhere.
// CHECK-LABEL: func @scalar_gate_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x4x16xf32>, %[[X:[^:]+]]: tensor<8x4x16xf32>, %[[H:[^:]+]]: tensor<3x16xf32>, %[[Z:[^:]+]]: tensor<3x16xf32>)
//       CHECK:   %[[A:.+]] = clifford.scalar_gate_adjoint <3, 0, 0> %[[G]], %[[X]] : tensor<8x4x16xf32>
//       CHECK:   %[[B:.+]] = clifford.scalar_gate_adjoint <3, 0, 1> %[[H]], %[[Z]] {blade_axis = 1 : i64} : tensor<3x16xf32>
//       CHECK:   return %[[A]], %[[B]]
// GENERIC-LABEL: sym_name = "scalar_gate_adjoint"
//       GENERIC:   "clifford.scalar_gate_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64}>
//       GENERIC:   "clifford.scalar_gate_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 1>, blade_axis = 1 : i64}>
func.func @scalar_gate_adjoint(%g: tensor<8x4x16xf32>, %x: tensor<8x4x16xf32>, %h: tensor<3x16xf32>, %z: tensor<3x16xf32>) -> (tensor<8x4x16xf32>, tensor<3x16xf32>) {
  %a = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x4x16xf32>
  %b = clifford.scalar_gate_adjoint <3, 0, 1> %h, %z {blade_axis = 1} : tensor<3x16xf32>
  return %a, %b : tensor<8x4x16xf32>, tensor<3x16xf32>
}

// The norm's adjoint, with the default epsilon and another.
// CHECK-LABEL: func @grade_rms_norm_adjoint
//  CHECK-SAME:   (%[[G:[^:]+]]: tensor<8x64x32xf32>, %[[X:[^:]+]]: tensor<8x64x32xf32>)
//       CHECK:   %[[A:.+]] = clifford.grade_rms_norm_adjoint <3, 0, 0> %[[G]], %[[X]] : tensor<8x64x32xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_rms_norm_adjoint <3, 0, 0> %[[A]], %[[X]] {epsilon = 9.99999974E-6 : f32} : tensor<8x64x32xf32>
//       CHECK:   return %[[B]]
// GENERIC-LABEL: sym_name = "grade_rms_norm_adjoint"
//       GENERIC:   "clifford.grade_rms_norm_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, epsilon = 9.99999997E-7 : f32}>
//       GENERIC:   "clifford.grade_rms_norm_adjoint"(%{{.+}}, %{{.+}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, epsilon = 9.99999974E-6 : f32}>
func.func @grade_rms_norm_adjoint(%g: tensor<8x64x32xf32>, %x: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  %a = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x : tensor<8x64x32xf32>
  %b = clifford.grade_rms_norm_adjoint <3, 0, 0> %a, %x {epsilon = 1.0e-05 : f32} : tensor<8x64x32xf32>
  return %b : tensor<8x64x32xf32>
}

//===----------------------------------------------------------------------===//
// Generic form with `{...}` attributes, default blade_axis and epsilon left
// out: what another tool may write. Printed back in the custom form.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @generic_products
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<8x16xf32>, %[[Y:[^:]+]]: tensor<8x16xf32>, %[[R:[^:]+]]: tensor<8x1xf32>)
//       CHECK:   %[[GP:.+]] = clifford.geometric_product <3, 0, 0> %[[X]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   %[[OP:.+]] = clifford.outer_product <3, 0, 0> %[[GP]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   %[[LC:.+]] = clifford.left_contraction <3, 0, 0> %[[OP]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   %[[SW:.+]] = clifford.sandwich <3, 0, 0> %[[R]], %[[LC]] : (tensor<8x1xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//       CHECK:   %[[SP:.+]] = clifford.scalar_product <3, 0, 0> %[[SW]], %[[X]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
//       CHECK:   return %[[SW]], %[[SP]]
func.func @generic_products(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> (tensor<8x16xf32>, tensor<1x16xf32>) {
  %gp = "clifford.geometric_product"(%x, %y) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %op = "clifford.outer_product"(%gp, %y) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %lc = "clifford.left_contraction"(%op, %y) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sw = "clifford.sandwich"(%r, %lc) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x1xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sp = "clifford.scalar_product"(%sw, %x) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %sw, %sp : tensor<8x16xf32>, tensor<1x16xf32>
}

// CHECK-LABEL: func @generic_unary
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8xf32>)
//       CHECK:   %[[A:.+]] = clifford.reverse <3, 0, 0> %[[X]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   %[[B:.+]] = clifford.grade_involution <3, 0, 0> %[[A]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   %[[C:.+]] = clifford.conjugate <3, 0, 0> %[[B]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   %[[D:.+]] = clifford.grade_project <3, 0, 0> %[[C]] grades [1, 3] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   %[[E:.+]] = clifford.dual <3, 0, 0> %[[D]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   %[[F:.+]] = clifford.scalar_gate <3, 0, 0> %[[E]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//       CHECK:   return %[[F]]
func.func @generic_unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = "clifford.reverse"(%x) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "clifford.grade_involution"(%a) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "clifford.conjugate"(%b) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "clifford.grade_project"(%c) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64, grades = array<i64: 1, 3>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "clifford.dual"(%d) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %f = "clifford.scalar_gate"(%e) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// CHECK-LABEL: func @generic_layers
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x3x5xf32>, %[[W:[^:]+]]: tensor<5x10xf32>, %[[V:[^:]+]]: tensor<10x5x2xf32>)
//       CHECK:   %[[A:.+]] = clifford.weighted_product <2, 0, 0> %[[X]], %[[X]], %[[W]] : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
//       CHECK:   %[[B:.+]] = clifford.fc_product <2, 0, 0> %[[A]], %[[X]], %[[V]] : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<10x5x2xf32>) -> tensor<4x3x2xf32>
//       CHECK:   %[[C:.+]] = clifford.grade_rms_norm <2, 0, 0> %[[B]] : tensor<4x3x2xf32>
//       CHECK:   %[[D:.+]] = clifford.grade_rms_norm <2, 0, 0> %[[C]] {epsilon = 1.000000e-03 : f32} : tensor<4x3x2xf32>
//       CHECK:   return %[[D]]
func.func @generic_layers(%x: tensor<4x3x5xf32>, %w: tensor<5x10xf32>, %v: tensor<10x5x2xf32>) -> tensor<4x3x2xf32> {
  %a = "clifford.weighted_product"(%x, %x, %w) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  %b = "clifford.fc_product"(%a, %x, %v) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<10x5x2xf32>) -> tensor<4x3x2xf32>
  %c = "clifford.grade_rms_norm"(%b) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  %d = "clifford.grade_rms_norm"(%c) {algebra = #clifford.algebra<2, 0, 0>, epsilon = 1.0e-03 : f32} : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %d : tensor<4x3x2xf32>
}

// The adjoints with their enums as the generic form's integers (product 2 is
// left_contraction, operand 1 is rhs).
// CHECK-LABEL: func @generic_adjoints
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x3x5xf32>, %[[W:[^:]+]]: tensor<5x10xf32>)
//       CHECK:   %[[A:.+]] = clifford.product_adjoint <2, 0, 0> left_contraction rhs %[[X]], %[[X]] : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
//       CHECK:   %[[B:.+]] = clifford.weighted_product_adjoint <2, 0, 0> lhs %[[A]], %[[X]], %[[W]] : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
//       CHECK:   %[[C:.+]] = clifford.path_adjoint <2, 0, 0> %[[B]], %[[X]], %[[X]] : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
//       CHECK:   %[[D:.+]] = clifford.scalar_gate_adjoint <2, 0, 0> %[[B]], %[[X]] : tensor<4x3x5xf32>
//       CHECK:   %[[E:.+]] = clifford.grade_rms_norm_adjoint <2, 0, 0> %[[D]], %[[X]] : tensor<4x3x5xf32>
//       CHECK:   return %[[C]], %[[E]]
func.func @generic_adjoints(%x: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> (tensor<10x3x5xf32>, tensor<4x3x5xf32>) {
  %a = "clifford.product_adjoint"(%x, %x) {algebra = #clifford.algebra<2, 0, 0>, product = 2 : i32, operand = 1 : i32} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  %b = "clifford.weighted_product_adjoint"(%a, %x, %w) {algebra = #clifford.algebra<2, 0, 0>, operand = 0 : i32} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  %c = "clifford.path_adjoint"(%b, %x, %x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
  %d = "clifford.scalar_gate_adjoint"(%b, %x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  %e = "clifford.grade_rms_norm_adjoint"(%d, %x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  return %c, %e : tensor<10x3x5xf32>, tensor<4x3x5xf32>
}
