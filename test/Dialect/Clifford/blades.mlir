// The #clifford.blades attribute and the optional operand blade sets of the
// products (lhs_blades, rhs_blades; rotor_blades, input_blades): round trip
// in both forms, and every parser and verifier error.
// RUN: uta-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: uta-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @blade_sets
//       CHECK:   clifford.geometric_product <3, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<1, 2, 3>, rhs_blades = #clifford.blades<>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
//       CHECK:   clifford.sandwich <3, 0, 0> %{{.*}}, %{{.*}} {input_blades = #clifford.blades<7>, rotor_blades = #clifford.blades<0, 4, 5, 6>}
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %{{.*}} {rhs_blades = #clifford.blades<0, 3>}
// A set naming the last blade of Cl(6,0), 63, is valid.
//       CHECK:   clifford.scalar_product <6, 0, 0> %{{.*}}, %{{.*}} {lhs_blades = #clifford.blades<0, 63>}
// GENERIC-LABEL: "func.func"
//       GENERIC:   "clifford.geometric_product"(%{{.*}}, %{{.*}}) <{algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i64, lhs_blades = #clifford.blades<1, 2, 3>, rhs_blades = #clifford.blades<>}>
func.func @blade_sets(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>, %a: tensor<4x2x8xf32>, %w: tensor<10x8x8xf32>, %m: tensor<64x3xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x2x8xf32>, tensor<1x3xf32>) {
  %0 = clifford.geometric_product <3, 0, 0> %x, %y {lhs_blades = #clifford.blades<1, 2, 3>, rhs_blades = #clifford.blades<>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = "clifford.sandwich"(%x, %y) {algebra = #clifford.algebra<3, 0, 0>, rotor_blades = #clifford.blades<0, 4, 5, 6>, input_blades = #clifford.blades<7>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = clifford.fc_product <2, 0, 0> %a, %a, %w {rhs_blades = #clifford.blades<0, 3>} : (tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<10x8x8xf32>) -> tensor<4x2x8xf32>
  %3 = clifford.scalar_product <6, 0, 0> %m, %m {lhs_blades = #clifford.blades<0, 63>} : (tensor<64x3xf32>, tensor<64x3xf32>) -> tensor<1x3xf32>
  return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x2x8xf32>, tensor<1x3xf32>
}

// -----

func.func @lhs_blade_out_of_algebra(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.outer_product' op lhs_blades names blade 9 but #clifford.algebra<3, 0, 0> has 8 blades}}
  %0 = clifford.outer_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<1, 9>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @rhs_blade_out_of_algebra(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{'clifford.left_contraction' op rhs_blades names blade 4 but #clifford.algebra<1, 1, 0> has 4 blades}}
  %0 = clifford.left_contraction <1, 1, 0> %x, %x {rhs_blades = #clifford.blades<4>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @rotor_blade_out_of_algebra(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.sandwich' op rotor_blades names blade 8 but #clifford.algebra<3, 0, 0> has 8 blades}}
  %0 = clifford.sandwich <3, 0, 0> %x, %x {rotor_blades = #clifford.blades<8>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @input_blade_out_of_algebra(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.sandwich' op input_blades names blade 63 but #clifford.algebra<3, 0, 0> has 8 blades}}
  %0 = clifford.sandwich <3, 0, 0> %x, %x {input_blades = #clifford.blades<63>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @layer_blade_out_of_algebra(%a: tensor<4x2x8xf32>, %w: tensor<8x10xf32>) -> tensor<4x2x8xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op rhs_blades names blade 5 but #clifford.algebra<2, 0, 0> has 4 blades}}
  %0 = clifford.weighted_product <2, 0, 0> %a, %a, %w {rhs_blades = #clifford.blades<0, 5>} : (tensor<4x2x8xf32>, tensor<4x2x8xf32>, tensor<8x10xf32>) -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}

// -----

func.func @blades_not_ascending(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{blade indices must be strictly ascending, but 1 follows 2}}
  %0 = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<2, 1>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @blades_repeated(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{blade indices must be strictly ascending, but 3 follows 3}}
  %0 = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<3, 3>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @blade_index_too_large(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{blade index 64 is out of range (0 to 63)}}
  %0 = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<64>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @blade_index_negative(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{blade index -1 is out of range (0 to 63)}}
  %0 = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = #clifford.blades<-1>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @blades_of_wrong_kind(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{attribute 'lhs_blades' failed to satisfy constraint}}
  %0 = clifford.geometric_product <3, 0, 0> %x, %x {lhs_blades = [1, 2]} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
