// Every diagnostic of the clifford dialect's attribute and op verifiers.
//
// RUN: uta-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #clifford.algebra
//===----------------------------------------------------------------------===//

// n = 7 basis vectors: more than the 6 that UTA supports (2^7 blades).
func.func @algebra_too_large(%x: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error@+1 {{#clifford.algebra<4, 2, 1> has 7 basis vectors but UTA supports 1 to 6}}
  %y = "clifford.reverse"(%x) {algebra = #clifford.algebra<4, 2, 1>} : (tensor<128xf32>) -> tensor<128xf32>
  return %y : tensor<128xf32>
}

// -----

// n = 0: the algebra of the reals alone has no blade axis to speak of.
func.func @algebra_empty(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{#clifford.algebra<0, 0, 0> has 0 basis vectors but UTA supports 1 to 6}}
  %y = clifford.reverse <0, 0, 0> %x : tensor<1xf32>
  return %y : tensor<1xf32>
}

// -----

// p + q wraps around to 1 in 32 bits; the sum must not overflow into range.
func.func @algebra_wraps(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{#clifford.algebra<4294967295, 2, 0> has 4294967297 basis vectors but UTA supports 1 to 6}}
  %y = clifford.reverse <4294967295, 2, 0> %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// Every op needs its algebra.
func.func @missing_algebra(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.reverse' op requires attribute 'algebra'}}
  %y = "clifford.reverse"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

//===----------------------------------------------------------------------===//
// Operand types
//===----------------------------------------------------------------------===//

// -----

// Only f32 multivectors.
func.func @not_f32(%x: tensor<8x4xf16>, %y: tensor<8x4xf16>) -> tensor<8x4xf16> {
  // expected-error@+1 {{'clifford.geometric_product' op operand #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x4xf16>'}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x4xf16>, tensor<8x4xf16>) -> tensor<8x4xf16>
  return %z : tensor<8x4xf16>
}

// -----

// Only static shapes.
func.func @dynamic_shape(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  // expected-error@+1 {{'clifford.reverse' op operand #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x?xf32>'}}
  %y = clifford.reverse <3, 0, 0> %x : tensor<8x?xf32>
  return %y : tensor<8x?xf32>
}

// -----

// Unary ops return the type of their input.
func.func @unary_result_type(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'clifford.conjugate' op failed to verify that all of {input, result} have same type}}
  %y = "clifford.conjugate"(%x) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x16xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// blade_axis is an i64 IntegerAttr, so that generic-form files agree on it.
func.func @blade_axis_i32(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.reverse' op attribute 'blade_axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %y = "clifford.reverse"(%x) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 0 : i32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

//===----------------------------------------------------------------------===//
// Blade axis and broadcasting
//===----------------------------------------------------------------------===//

// -----

// 4 entries on the blade axis, but Cl(3,0) has 8 blades.
func.func @blade_axis_size_lhs(%x: tensor<4x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.geometric_product' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (lhs)}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// The blade axis never broadcasts: size 1 there is wrong too.
func.func @blade_axis_size_rhs(%x: tensor<8x16xf32>, %y: tensor<1x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.outer_product' op blade axis has size 1 but #clifford.algebra<3, 0, 0> has 8 blades (rhs)}}
  %z = clifford.outer_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// The result of a product is a full multivector.
func.func @blade_axis_size_result(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<1x16xf32> {
  // expected-error@+1 {{'clifford.left_contraction' op blade axis has size 1 but #clifford.algebra<3, 0, 0> has 8 blades (result)}}
  %z = clifford.left_contraction <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %z : tensor<1x16xf32>
}

// -----

// blade_axis selects the axis: with blade_axis = 1 the 16 entries there are
// checked against the 8 blades, not the leading 8.
func.func @blade_axis_size_unary(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.scalar_gate' op blade axis has size 16 but #clifford.algebra<3, 0, 0> has 8 blades (input)}}
  %y = clifford.scalar_gate <3, 0, 0> %x {blade_axis = 1} : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// The rotor of a sandwich is a multivector of the same algebra.
func.func @sandwich_rotor_size(%r: tensor<4x1xf32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.sandwich' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (rotor)}}
  %y = clifford.sandwich <3, 0, 0> %r, %x : (tensor<4x1xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// blade_axis beyond the rank.
func.func @blade_axis_out_of_range(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.reverse' op blade_axis 3 is out of range for rank 2}}
  %y = clifford.reverse <3, 0, 0> %x {blade_axis = 3} : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Negative axes are not counted from the end.
func.func @blade_axis_negative(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.geometric_product' op blade_axis -1 is out of range for rank 2}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y {blade_axis = -1} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// A rank-0 tensor has no blade axis at all.
func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'clifford.grade_involution' op blade_axis 0 is out of range for rank 0}}
  %y = clifford.grade_involution <1, 0, 0> %x : tensor<f32>
  return %y : tensor<f32>
}

// -----

// Ranks are not aligned implicitly: the blade axis must sit at one position.
func.func @rank_mismatch(%x: tensor<8x16xf32>, %y: tensor<8x4x16xf32>) -> tensor<8x4x16xf32> {
  // expected-error@+1 {{'clifford.geometric_product' op rhs has rank 3 but lhs has rank 2}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  return %z : tensor<8x4x16xf32>
}

// -----

// The result has the operands' rank.
func.func @result_rank_mismatch(%r: tensor<8x1xf32>, %x: tensor<8x16xf32>) -> tensor<8x1x16xf32> {
  // expected-error@+1 {{'clifford.sandwich' op result has rank 3 but rotor has rank 2}}
  %y = clifford.sandwich <3, 0, 0> %r, %x : (tensor<8x1xf32>, tensor<8x16xf32>) -> tensor<8x1x16xf32>
  return %y : tensor<8x1x16xf32>
}

// -----

// 4 and 16 do not broadcast (neither is 1).
func.func @incompatible_batch(%x: tensor<8x4xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.geometric_product' op lhs and rhs have incompatible sizes 4 and 16 at axis 1}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// The result must have the broadcast shape, not a larger one.
func.func @result_not_broadcast_shape(%x: tensor<8x1xf32>, %y: tensor<8x1xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.geometric_product' op result has size 16 at axis 1 but the operands broadcast to 1}}
  %z = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// Nor a smaller one: broadcasting the batch of the rotor's partner.
func.func @sandwich_result_shape(%r: tensor<8x1xf32>, %x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  // expected-error@+1 {{'clifford.sandwich' op result has size 1 at axis 1 but the operands broadcast to 16}}
  %y = clifford.sandwich <3, 0, 0> %r, %x : (tensor<8x1xf32>, tensor<8x16xf32>) -> tensor<8x1xf32>
  return %y : tensor<8x1xf32>
}

// -----

// scalar_product returns one number per multivector: blade axis of size 1.
func.func @scalar_product_result(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.scalar_product' op result blade axis has size 8 but a scalar product has size 1}}
  %s = clifford.scalar_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

//===----------------------------------------------------------------------===//
// grade_project and dual
//===----------------------------------------------------------------------===//

// -----

// An empty projection would be a zero constant, not a projection.
func.func @grades_empty(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.grade_project' op grades must not be empty}}
  %y = clifford.grade_project <3, 0, 0> %x grades [] : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Cl(3,0) has grades 0..3.
func.func @grade_too_large(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.grade_project' op grade 4 is out of range for #clifford.algebra<3, 0, 0>, whose grades are 0 to 3}}
  %y = clifford.grade_project <3, 0, 0> %x grades [1, 4] : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Grades are never negative.
func.func @grade_negative(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.grade_project' op grade -1 is out of range for #clifford.algebra<3, 0, 0>, whose grades are 0 to 3}}
  %y = "clifford.grade_project"(%x) {algebra = #clifford.algebra<3, 0, 0>, grades = array<i64: -1, 2>} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Order carries no meaning, so only one (ascending) spelling is valid.
func.func @grades_descending(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.grade_project' op grades must be unique and ascending, but 1 follows 2}}
  %y = clifford.grade_project <3, 0, 0> %x grades [2, 1] : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// A repeated grade.
func.func @grades_repeated(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'clifford.grade_project' op grades must be unique and ascending, but 2 follows 2}}
  %y = clifford.grade_project <3, 0, 0> %x grades [0, 2, 2] : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// The pseudoscalar of PGA squares to 0, so it has no inverse.
func.func @dual_degenerate(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-error@+1 {{'clifford.dual' op dual is undefined in the degenerate algebra #clifford.algebra<3, 0, 1>}}
  %y = clifford.dual <3, 0, 1> %x : tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

//===----------------------------------------------------------------------===//
// Flash Clifford layers
//===----------------------------------------------------------------------===//

// -----

// Cl(2,0) has 10 paths, not 9.
func.func @weighted_product_paths(%x: tensor<4x3x5xf32>, %w: tensor<5x9xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op weights have 9 paths but #clifford.algebra<2, 0, 0> has 10}}
  %z = clifford.weighted_product <2, 0, 0> %x, %x, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x9xf32>) -> tensor<4x3x5xf32>
  return %z : tensor<4x3x5xf32>
}

// -----

// weights are [features, paths]: the transposed layout is caught.
func.func @weighted_product_features(%x: tensor<8x3x5xf32>, %w: tensor<20x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op weights have 20 features but lhs has 5}}
  %z = clifford.weighted_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// weights of weighted_product have rank 2.
func.func @weighted_product_weights_rank(%x: tensor<8x3x5xf32>, %w: tensor<20x5x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op weights have rank 3 but weighted_product takes rank 2 ([features, paths])}}
  %z = clifford.weighted_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x5xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// The layer ops do not broadcast x against y.
func.func @weighted_product_mismatched_inputs(%x: tensor<8x3x5xf32>, %y: tensor<8x1x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op rhs has shape 8x1x5 but lhs has shape 8x3x5}}
  %z = clifford.weighted_product <3, 0, 0> %x, %y, %w : (tensor<8x3x5xf32>, tensor<8x1x5xf32>, tensor<5x20xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// weighted_product keeps the feature count.
func.func @weighted_product_result(%x: tensor<8x3x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x3x4xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op result has shape 8x3x4 but lhs has shape 8x3x5}}
  %z = clifford.weighted_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<5x20xf32>) -> tensor<8x3x4xf32>
  return %z : tensor<8x3x4xf32>
}

// -----

// The layer ops take [blades, batch, features] exactly.
func.func @weighted_product_rank(%x: tensor<8x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op lhs has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %z = clifford.weighted_product <3, 0, 0> %x, %x, %w : (tensor<8x5xf32>, tensor<8x5xf32>, tensor<5x20xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// rhs is checked as well as lhs.
func.func @fc_product_rhs_rank(%x: tensor<8x3x5xf32>, %y: tensor<8x3x5x1xf32>, %w: tensor<20x5x2xf32>) -> tensor<8x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op rhs has rank 4 but the layer ops take rank 3 ([blades, batch, features])}}
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x3x5xf32>, tensor<8x3x5x1xf32>, tensor<20x5x2xf32>) -> tensor<8x3x2xf32>
  return %z : tensor<8x3x2xf32>
}

// -----

// The layer ops are component-major only.
func.func @weighted_product_blade_axis(%x: tensor<3x8x5xf32>, %w: tensor<5x20xf32>) -> tensor<3x8x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product' op blade_axis is 1 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %z = clifford.weighted_product <3, 0, 0> %x, %x, %w {blade_axis = 1} : (tensor<3x8x5xf32>, tensor<3x8x5xf32>, tensor<5x20xf32>) -> tensor<3x8x5xf32>
  return %z : tensor<3x8x5xf32>
}

// -----

// The layer ops check the blade count too.
func.func @fc_product_blades(%x: tensor<4x3x5xf32>, %w: tensor<20x5x2xf32>) -> tensor<4x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (lhs)}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<20x5x2xf32>) -> tensor<4x3x2xf32>
  return %z : tensor<4x3x2xf32>
}

// -----

// fc_product weights are [paths, in, out]: 20 paths in Cl(3,0).
func.func @fc_product_paths(%x: tensor<8x3x5xf32>, %w: tensor<10x5x2xf32>) -> tensor<8x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op weights have 10 paths but #clifford.algebra<3, 0, 0> has 20}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<10x5x2xf32>) -> tensor<8x3x2xf32>
  return %z : tensor<8x3x2xf32>
}

// -----

// The weights' input features must match x's features.
func.func @fc_product_in_features(%x: tensor<8x3x5xf32>, %w: tensor<20x2x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.fc_product' op weights have 2 input features (axis 1) but lhs has 5}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x2x5xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// With transpose_weights the weights are [paths, out, in]: their input
// features are axis 2.
func.func @fc_product_transposed_in_features(%x: tensor<8x3x5xf32>, %w: tensor<20x5x2xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.fc_product' op weights have 2 input features (axis 2) but lhs has 5}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w {transpose_weights = true} : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x2xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// With transpose_weights the result's features are the weights' axis 1.
func.func @fc_product_transposed_result(%x: tensor<8x3x5xf32>, %w: tensor<20x4x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.fc_product' op result has shape 8x3x5 but lhs and weights give 8x3x4}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w {transpose_weights = true} : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x4x5xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// fc_product weights have rank 3.
func.func @fc_product_weights_rank(%x: tensor<8x3x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.fc_product' op weights have rank 2 but fc_product takes rank 3 ([paths, input features, output features])}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<5x20xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// The result has the weights' output feature count.
func.func @fc_product_result(%x: tensor<8x3x5xf32>, %w: tensor<20x5x2xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.fc_product' op result has shape 8x3x5 but lhs and weights give 8x3x2}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x2xf32>) -> tensor<8x3x5xf32>
  return %z : tensor<8x3x5xf32>
}

// -----

// grade_rms_norm is a layer op: rank 3.
func.func @grade_rms_norm_rank(%x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm' op input has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %y = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x5xf32>
  return %y : tensor<8x5xf32>
}

// -----

// grade_rms_norm is a layer op: blade axis 0.
func.func @grade_rms_norm_blade_axis(%x: tensor<8x8x5xf32>) -> tensor<8x8x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm' op blade_axis is 2 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %y = clifford.grade_rms_norm <3, 0, 0> %x {blade_axis = 2} : tensor<8x8x5xf32>
  return %y : tensor<8x8x5xf32>
}

// -----

// A negative epsilon could make the root imaginary.
func.func @grade_rms_norm_negative_epsilon(%x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm' op epsilon must be finite and non-negative, got -1.000000e-01}}
  %y = clifford.grade_rms_norm <3, 0, 0> %x {epsilon = -0.1 : f32} : tensor<8x3x5xf32>
  return %y : tensor<8x3x5xf32>
}

// -----

// NaN would poison every output.
func.func @grade_rms_norm_nan_epsilon(%x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm' op epsilon must be finite and non-negative, got nan}}
  %y = clifford.grade_rms_norm <3, 0, 0> %x {epsilon = 0x7FC00000 : f32} : tensor<8x3x5xf32>
  return %y : tensor<8x3x5xf32>
}

// -----

// epsilon is an f32 FloatAttr; an f64 one is rejected.
func.func @grade_rms_norm_f64_epsilon(%x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %y = "clifford.grade_rms_norm"(%x) {algebra = #clifford.algebra<3, 0, 0>, epsilon = 1.0e-06 : f64} : (tensor<8x3x5xf32>) -> tensor<8x3x5xf32>
  return %y : tensor<8x3x5xf32>
}

//===----------------------------------------------------------------------===//
// Adjoints of the products
//===----------------------------------------------------------------------===//

// -----

// The product kind is one of the four products.
func.func @product_adjoint_unknown_product(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{custom op 'clifford.product_adjoint' expected string or keyword containing one of the following enum values for attribute 'product' [geometric, outer, left_contraction, scalar]}}
  %dx = clifford.product_adjoint <3, 0, 0> inner lhs %g, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// In the generic form the enums are integers, and only theirs are accepted.
func.func @product_adjoint_product_out_of_range(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op attribute 'product' failed to satisfy constraint: a bilinear product of the dialect}}
  %dx = "clifford.product_adjoint"(%g, %y) {algebra = #clifford.algebra<3, 0, 0>, product = 4 : i32, operand = 0 : i32} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// Only f32, as for every clifford op.
func.func @product_adjoint_not_f32(%g: tensor<8x4xf16>, %y: tensor<8x4xf16>) -> tensor<8x4xf16> {
  // expected-error@+1 {{'clifford.product_adjoint' op operand #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x4xf16>'}}
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x4xf16>, tensor<8x4xf16>) -> tensor<8x4xf16>
  return %dx : tensor<8x4xf16>
}

// -----

// The cotangent of a multivector product has 2^n blades.
func.func @product_adjoint_cotangent_blades(%g: tensor<4x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (cotangent)}}
  %dx = clifford.product_adjoint <3, 0, 0> outer lhs %g, %y : (tensor<4x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

func.func @product_adjoint_other_blades(%g: tensor<8x4xf32>, %x: tensor<1x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade axis has size 1 but #clifford.algebra<3, 0, 0> has 8 blades (other)}}
  %dy = clifford.product_adjoint <3, 0, 0> geometric rhs %g, %x : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  return %dy : tensor<8x4xf32>
}

// -----

// The result has 2^n blades whatever the product.
func.func @product_adjoint_result_blades(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade axis has size 1 but #clifford.algebra<3, 0, 0> has 8 blades (result)}}
  %dx = clifford.product_adjoint <3, 0, 0> left_contraction lhs %g, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return %dx : tensor<1x4xf32>
}

// -----

// Ranks are never aligned implicitly.
func.func @product_adjoint_rank(%g: tensor<8x4xf32>, %y: tensor<8x3x4xf32>) -> tensor<8x3x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op other has rank 3 but cotangent has rank 2}}
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x4xf32>, tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  return %dx : tensor<8x3x4xf32>
}

// -----

func.func @product_adjoint_result_rank(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x1x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op result has rank 3 but cotangent has rank 2}}
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x1x4xf32>
  return %dx : tensor<8x1x4xf32>
}

// -----

func.func @product_adjoint_blade_axis(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade_axis 2 is out of range for rank 2}}
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y {blade_axis = 2} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// The non-blade axes broadcast NumPy-style.
func.func @product_adjoint_incompatible(%g: tensor<8x4xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent and other have incompatible sizes 4 and 16 at axis 1}}
  %dx = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %dx : tensor<8x16xf32>
}

// -----

func.func @product_adjoint_result_shape(%g: tensor<8x1xf32>, %y: tensor<8x4xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op result has size 16 at axis 1 but the operands broadcast to 4}}
  %dx = clifford.product_adjoint <3, 0, 0> outer rhs %g, %y : (tensor<8x1xf32>, tensor<8x4xf32>) -> tensor<8x16xf32>
  return %dx : tensor<8x16xf32>
}

// -----

// The cotangent of a scalar product has one blade, not 2^n.
func.func @product_adjoint_scalar_cotangent(%g: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent of a scalar product has blade axis size 8 but must have size 1}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// The scalar product's own rules: one rank for the three tensors ...
func.func @product_adjoint_scalar_rank(%g: tensor<1x3x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent, other and result must have one rank}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %y : (tensor<1x3x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// ... the blade axis in range ...
func.func @product_adjoint_scalar_blade_axis(%g: tensor<1x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade_axis -1 is out of range for rank 2}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar rhs %g, %y {blade_axis = -1} : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// ... 2^n blades in the other operand and the result ...
func.func @product_adjoint_scalar_other_blades(%g: tensor<1x4xf32>, %y: tensor<4x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (other)}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %y : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

func.func @product_adjoint_scalar_result_blades(%g: tensor<1x4xf32>, %y: tensor<8x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op blade axis has size 1 but #clifford.algebra<3, 0, 0> has 8 blades (result)}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %y : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return %dx : tensor<1x4xf32>
}

// -----

// ... and NumPy broadcasting over the other axes.
func.func @product_adjoint_scalar_incompatible(%g: tensor<1x3xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent and other have incompatible sizes 3 and 5 at axis 1}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %g, %y : (tensor<1x3xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %dx : tensor<8x5xf32>
}

// -----

func.func @product_adjoint_scalar_result_shape(%g: tensor<1x1xf32>, %y: tensor<8x5xf32>) -> tensor<8x1xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op result has size 1 at axis 1 but the operands broadcast to 5}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar rhs %g, %y : (tensor<1x1xf32>, tensor<8x5xf32>) -> tensor<8x1xf32>
  return %dx : tensor<8x1xf32>
}

// -----

// weighted_product_adjoint takes the layer shapes: blade axis 0 ...
func.func @weighted_product_adjoint_blade_axis(%g: tensor<3x8x5xf32>, %w: tensor<5x20xf32>) -> tensor<3x8x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op blade_axis is 1 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %g, %w {blade_axis = 1} : (tensor<3x8x5xf32>, tensor<3x8x5xf32>, tensor<5x20xf32>) -> tensor<3x8x5xf32>
  return %dx : tensor<3x8x5xf32>
}

// -----

// ... rank 3 ...
func.func @weighted_product_adjoint_rank(%g: tensor<8x3x5xf32>, %y: tensor<8x15xf32>, %w: tensor<5x20xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op other has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x3x5xf32>, tensor<8x15xf32>, tensor<5x20xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

// ... 2^n blades ...
func.func @weighted_product_adjoint_blades(%g: tensor<4x3x5xf32>, %w: tensor<5x20xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (cotangent)}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> rhs %g, %g, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x20xf32>) -> tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// ... and no broadcasting.
func.func @weighted_product_adjoint_mismatched(%g: tensor<8x3x5xf32>, %y: tensor<8x1x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op other has shape 8x1x5 but cotangent has shape 8x3x5}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x3x5xf32>, tensor<8x1x5xf32>, tensor<5x20xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

// The weights are weighted_product's: [features, paths].
func.func @weighted_product_adjoint_weights_rank(%g: tensor<8x3x5xf32>, %w: tensor<5x20x1xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op weights have rank 3 but weighted_product takes rank 2 ([features, paths])}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %g, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<5x20x1xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @weighted_product_adjoint_features(%g: tensor<8x3x5xf32>, %w: tensor<20x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op weights have 20 features but cotangent has 5}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> rhs %g, %g, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @weighted_product_adjoint_paths(%g: tensor<4x3x5xf32>, %w: tensor<5x9xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op weights have 9 paths but #clifford.algebra<2, 0, 0> has 10}}
  %dx = clifford.weighted_product_adjoint <2, 0, 0> lhs %g, %g, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x9xf32>) -> tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// The result has the cotangent's shape.
func.func @weighted_product_adjoint_result(%g: tensor<8x3x5xf32>, %w: tensor<5x20xf32>) -> tensor<8x1x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op result has shape 8x1x5 but cotangent has shape 8x3x5}}
  %dx = clifford.weighted_product_adjoint <3, 0, 0> lhs %g, %g, %w : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<5x20xf32>) -> tensor<8x1x5xf32>
  return %dx : tensor<8x1x5xf32>
}

// -----

// The adjoints' blade sets name blades of the algebra.
func.func @product_adjoint_other_blade_out_of_algebra(%g: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op other_blades names blade 8 but #clifford.algebra<3, 0, 0> has 8 blades}}
  %dx = clifford.product_adjoint <3, 0, 0> outer rhs %g, %g {other_blades = #clifford.blades<1, 8>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

func.func @product_adjoint_cotangent_blade_out_of_algebra(%g: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent_blades names blade 5 but #clifford.algebra<2, 0, 0> has 4 blades}}
  %dx = clifford.product_adjoint <2, 0, 0> geometric lhs %g, %g {cotangent_blades = #clifford.blades<5>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %dx : tensor<4x4xf32>
}

// -----

// The cotangent of a scalar product is the scalar: its set is <0> or <>.
func.func @product_adjoint_scalar_cotangent_blades(%s: tensor<1x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.product_adjoint' op cotangent_blades names blade 4 but the cotangent of a scalar product has blade 0 only}}
  %dx = clifford.product_adjoint <3, 0, 0> scalar lhs %s, %y {cotangent_blades = #clifford.blades<0, 4>} : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

func.func @weighted_product_adjoint_cotangent_blade_out_of_algebra(%g: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op cotangent_blades names blade 4 but #clifford.algebra<2, 0, 0> has 4 blades}}
  %dx = clifford.weighted_product_adjoint <2, 0, 0> lhs %g, %g, %w {cotangent_blades = #clifford.blades<0, 4>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

func.func @weighted_product_adjoint_other_blade_out_of_algebra(%g: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.weighted_product_adjoint' op other_blades names blade 6 but #clifford.algebra<2, 0, 0> has 4 blades}}
  %dx = clifford.weighted_product_adjoint <2, 0, 0> rhs %g, %g, %w {other_blades = #clifford.blades<6>} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}
// -----

// path_adjoint: lhs, rhs and cotangent of one layer shape.
func.func @path_adjoint_blade_axis(%x: tensor<3x8x5xf32>) -> tensor<20x8x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op blade_axis is 1 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %t = clifford.path_adjoint <3, 0, 0> %x, %x, %x {blade_axis = 1} : (tensor<3x8x5xf32>, tensor<3x8x5xf32>, tensor<3x8x5xf32>) -> tensor<20x8x5xf32>
  return %t : tensor<20x8x5xf32>
}

// -----

func.func @path_adjoint_rank(%g: tensor<8x3x5xf32>, %x: tensor<8x15xf32>) -> tensor<20x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op lhs has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %t = clifford.path_adjoint <3, 0, 0> %g, %x, %x : (tensor<8x3x5xf32>, tensor<8x15xf32>, tensor<8x15xf32>) -> tensor<20x3x5xf32>
  return %t : tensor<20x3x5xf32>
}

// -----

func.func @path_adjoint_rhs_blades(%x: tensor<8x3x5xf32>, %y: tensor<4x3x5xf32>) -> tensor<20x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (rhs)}}
  %t = clifford.path_adjoint <3, 0, 0> %x, %x, %y : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<4x3x5xf32>) -> tensor<20x3x5xf32>
  return %t : tensor<20x3x5xf32>
}

// -----

func.func @path_adjoint_cotangent_blades(%g: tensor<4x3x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<20x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (cotangent)}}
  %t = clifford.path_adjoint <3, 0, 0> %g, %x, %x : (tensor<4x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>) -> tensor<20x3x5xf32>
  return %t : tensor<20x3x5xf32>
}

// -----

func.func @path_adjoint_mismatched(%x: tensor<8x3x5xf32>, %y: tensor<8x3x1xf32>) -> tensor<20x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op rhs has shape 8x3x1 but lhs has shape 8x3x5}}
  %t = clifford.path_adjoint <3, 0, 0> %x, %x, %y : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<8x3x1xf32>) -> tensor<20x3x5xf32>
  return %t : tensor<20x3x5xf32>
}

// -----

func.func @path_adjoint_cotangent_shape(%g: tensor<8x1x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<20x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op cotangent has shape 8x1x5 but lhs has shape 8x3x5}}
  %t = clifford.path_adjoint <3, 0, 0> %g, %x, %x : (tensor<8x1x5xf32>, tensor<8x3x5xf32>, tensor<8x3x5xf32>) -> tensor<20x3x5xf32>
  return %t : tensor<20x3x5xf32>
}

// -----

// A chunk holds at least one batch element.
func.func @path_adjoint_batch_chunk(%x: tensor<4x3x5xf32>) -> tensor<10x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op batch_chunk must be at least 1, got 0}}
  %t = clifford.path_adjoint <2, 0, 0> %x, %x, %x {batch_chunk = 0} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
  return %t : tensor<10x3x5xf32>
}

// -----

// With batch_chunk, axis 1 has one entry per chunk: ceil(3 / 2) = 2.
func.func @path_adjoint_chunked_result(%x: tensor<4x3x5xf32>) -> tensor<10x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op result has shape 10x3x5 but the paths of #clifford.algebra<2, 0, 0> and lhs give 10x2x5}}
  %t = clifford.path_adjoint <2, 0, 0> %x, %x, %x {batch_chunk = 2} : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
  return %t : tensor<10x3x5xf32>
}

// -----

// The result has one entry per path of the algebra along axis 0: 10 in
// Cl(2,0), whatever the blade count.
func.func @path_adjoint_result(%x: tensor<4x3x5xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.path_adjoint' op result has shape 4x3x5 but the paths of #clifford.algebra<2, 0, 0> and lhs give 10x3x5}}
  %t = clifford.path_adjoint <2, 0, 0> %x, %x, %x : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  return %t : tensor<4x3x5xf32>
}

//===----------------------------------------------------------------------===//
// pair_gate
//===----------------------------------------------------------------------===//

// -----

// pair_gate does not broadcast: lhs, rhs and result have one type.
func.func @pair_gate_types(%x: tensor<8x4xf32>, %y: tensor<8x1xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.pair_gate' op failed to verify that all of {lhs, rhs, result} have same type}}
  %z = "clifford.pair_gate"(%x, %y) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x4xf32>, tensor<8x1xf32>) -> tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}

// -----

// pair_gate's blade axis holds the algebra's blades.
func.func @pair_gate_blades(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error@+1 {{'clifford.pair_gate' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (lhs)}}
  %z = clifford.pair_gate <3, 0, 0> %x, %x : tensor<4x16xf32>
  return %z : tensor<4x16xf32>
}

//===----------------------------------------------------------------------===//
// Adjoints of the gate and the norm
//===----------------------------------------------------------------------===//

// -----

// The gate's adjoint does not broadcast: cotangent, input and result have
// one type.
func.func @scalar_gate_adjoint_types(%g: tensor<8x1xf32>, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.scalar_gate_adjoint' op failed to verify that all of {cotangent, input, result} have same type}}
  %dx = "clifford.scalar_gate_adjoint"(%g, %x) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x1xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// Only f32, as for every clifford op.
func.func @scalar_gate_adjoint_not_f32(%g: tensor<8x4xf16>, %x: tensor<8x4xf16>) -> tensor<8x4xf16> {
  // expected-error@+1 {{'clifford.scalar_gate_adjoint' op operand #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x4xf16>'}}
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x4xf16>
  return %dx : tensor<8x4xf16>
}

// -----

func.func @scalar_gate_adjoint_blade_axis(%g: tensor<8x4xf32>, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'clifford.scalar_gate_adjoint' op blade_axis 2 is out of range for rank 2}}
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x {blade_axis = 2} : tensor<8x4xf32>
  return %dx : tensor<8x4xf32>
}

// -----

// The operands are multivectors: 2^n blades on the blade axis.
func.func @scalar_gate_adjoint_blades(%g: tensor<8x16xf32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'clifford.scalar_gate_adjoint' op blade axis has size 16 but #clifford.algebra<3, 0, 0> has 8 blades (cotangent)}}
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x {blade_axis = 1} : tensor<8x16xf32>
  return %dx : tensor<8x16xf32>
}

// -----

// The norm's adjoint is a layer op: rank 3.
func.func @grade_rms_norm_adjoint_rank(%g: tensor<8x5xf32>, %x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op input has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x : tensor<8x5xf32>
  return %dx : tensor<8x5xf32>
}

// -----

// The norm's adjoint is a layer op: blade axis 0.
func.func @grade_rms_norm_adjoint_blade_axis(%g: tensor<8x8x5xf32>, %x: tensor<8x8x5xf32>) -> tensor<8x8x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op blade_axis is 2 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x {blade_axis = 2} : tensor<8x8x5xf32>
  return %dx : tensor<8x8x5xf32>
}

// -----

func.func @grade_rms_norm_adjoint_blades(%g: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>) -> tensor<4x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (input)}}
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x : tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// The cotangent has the input's type: the adjoint does not broadcast.
func.func @grade_rms_norm_adjoint_types(%g: tensor<8x1x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op failed to verify that all of {cotangent, input, result} have same type}}
  %dx = "clifford.grade_rms_norm_adjoint"(%g, %x) {algebra = #clifford.algebra<3, 0, 0>} : (tensor<8x1x5xf32>, tensor<8x3x5xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @grade_rms_norm_adjoint_negative_epsilon(%g: tensor<8x3x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op epsilon must be finite and non-negative, got -1.000000e-01}}
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x {epsilon = -0.1 : f32} : tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @grade_rms_norm_adjoint_infinite_epsilon(%g: tensor<8x3x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op epsilon must be finite and non-negative, got INF}}
  %dx = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %x {epsilon = 0x7F800000 : f32} : tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @grade_rms_norm_adjoint_f64_epsilon(%g: tensor<8x3x5xf32>, %x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.grade_rms_norm_adjoint' op attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %dx = "clifford.grade_rms_norm_adjoint"(%g, %x) {algebra = #clifford.algebra<3, 0, 0>, epsilon = 1.0e-06 : f64} : (tensor<8x3x5xf32>, tensor<8x3x5xf32>) -> tensor<8x3x5xf32>
  return %dx : tensor<8x3x5xf32>
}

// -----

func.func @fc_product_gate_shape(%x: tensor<8x3x5xf32>, %w: tensor<20x5x2xf32>, %g: tensor<3x4xf32>) -> tensor<8x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op gate has shape 3x4 but lhs gives [batch, features] = 3x5}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w gate %g : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x2xf32>, tensor<3x4xf32>) -> tensor<8x3x2xf32>
  return %z : tensor<8x3x2xf32>
}

// -----

func.func @fc_product_gate_rank(%x: tensor<8x3x5xf32>, %w: tensor<20x5x2xf32>, %g: tensor<1x3x5xf32>) -> tensor<8x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op gate has shape 1x3x5 but lhs gives [batch, features] = 3x5}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w gate %g : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x2xf32>, tensor<1x3x5xf32>) -> tensor<8x3x2xf32>
  return %z : tensor<8x3x2xf32>
}

// -----

func.func @fc_product_gate_type(%x: tensor<8x3x5xf32>, %w: tensor<20x5x2xf32>, %g: tensor<3x5xf16>) -> tensor<8x3x2xf32> {
  // expected-error@+1 {{'clifford.fc_product' op operand #3 must be statically shaped tensor of 32-bit float values, but got 'tensor<3x5xf16>'}}
  %z = clifford.fc_product <3, 0, 0> %x, %x, %w gate %g : (tensor<8x3x5xf32>, tensor<8x3x5xf32>, tensor<20x5x2xf32>, tensor<3x5xf16>) -> tensor<8x3x2xf32>
  return %z : tensor<8x3x2xf32>
}

// -----

func.func @pair_gate_factor_result(%x: tensor<8x3x5xf32>) -> tensor<8x3x5xf32> {
  // expected-error@+1 {{'clifford.pair_gate_factor' op result has shape 8x3x5 but lhs gives [batch, features] = 3x5}}
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %x : (tensor<8x3x5xf32>, tensor<8x3x5xf32>) -> tensor<8x3x5xf32>
  return %g : tensor<8x3x5xf32>
}

// -----

func.func @pair_gate_factor_operands(%x: tensor<8x3x5xf32>, %y: tensor<8x4x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'clifford.pair_gate_factor' op failed to verify that all of {lhs, rhs} have same type}}
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %y : (tensor<8x3x5xf32>, tensor<8x4x5xf32>) -> tensor<3x5xf32>
  return %g : tensor<3x5xf32>
}

// -----

func.func @pair_gate_factor_blades(%x: tensor<4x3x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'clifford.pair_gate_factor' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (lhs)}}
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %x : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<3x5xf32>
  return %g : tensor<3x5xf32>
}

// -----

func.func @pair_gate_factor_blade_axis(%x: tensor<3x8x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'clifford.pair_gate_factor' op blade_axis is 1 but the layer ops require blade axis 0 ([blades, batch, features])}}
  %g = clifford.pair_gate_factor <3, 0, 0> %x, %x {blade_axis = 1} : (tensor<3x8x5xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
  return %g : tensor<3x5xf32>
}

// -----

// fc_product_adjoint: the weights' input features are other's ...
func.func @fc_product_adjoint_in_features(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x16x48xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_adjoint' op weights have 16 input features (axis 1) but other has 32}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x16x48xf32>) -> tensor<8x64x32xf32>
  return %dx : tensor<8x64x32xf32>
}

// -----

// ... the cotangent's features are the weights' output features ...
func.func @fc_product_adjoint_out_features(%g: tensor<8x64x40xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_adjoint' op cotangent has 40 features but the weights have 48 output features}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x40xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  return %dx : tensor<8x64x32xf32>
}

// -----

// ... one batch ...
func.func @fc_product_adjoint_batch(%g: tensor<8x8x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_adjoint' op cotangent has batch size 8 but other has 64}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> rhs %g, %y, %w : (tensor<8x8x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  return %dx : tensor<8x64x32xf32>
}

// -----

// ... the result has other's shape ...
func.func @fc_product_adjoint_result(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_adjoint' op result has shape 8x64x48 but other has shape 8x64x32}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x48xf32>
  return %dx : tensor<8x64x48xf32>
}

// -----

// fc_product_pair_adjoints: pairs at x's positions ...
func.func @fc_pair_adjoints_pairs(%t: tensor<44x64x16xf32>, %x: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_adjoints' op pairs have shape 44x64x16 but the path groups of #clifford.algebra<3, 0, 0> and lhs give 44x64x32}}
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %x : (tensor<44x64x16xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf32>)
  return %dx : tensor<8x64x32xf32>
}

// -----

// ... x, y and both gradients of one type (ODS) ...
func.func @fc_pair_adjoints_types(%t: tensor<44x64x32xf32>, %x: tensor<8x64x32xf32>) -> tensor<8x64x16xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_adjoints' op failed to verify that all of {lhs, rhs, lhs_gradient, rhs_gradient} have same type}}
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %x : (tensor<44x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> (tensor<8x64x32xf32>, tensor<8x64x16xf32>)
  return %dy : tensor<8x64x16xf32>
}

// -----

// ... the layer ops' operands: [blades, batch, features].
func.func @fc_pair_adjoints_rank(%t: tensor<44x64xf32>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_adjoints' op lhs has rank 2 but the layer ops take rank 3 ([blades, batch, features])}}
  %dx, %dy = clifford.fc_product_pair_adjoints <3, 0, 0> %t, %x, %x : (tensor<44x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>)
  return %dx : tensor<8x64xf32>
}

// -----

// ... the algebra's paths, and an operand (ODS).
func.func @fc_product_adjoint_paths(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<10x32x48xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_adjoint' op weights have 10 paths but #clifford.algebra<3, 0, 0> has 20}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> lhs %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<10x32x48xf32>) -> tensor<8x64x32xf32>
  return %dx : tensor<8x64x32xf32>
}

// -----

func.func @fc_product_adjoint_operand(%g: tensor<8x64x48xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x48xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{custom op 'clifford.fc_product_adjoint' expected string or keyword containing one of the following enum values for attribute 'operand' [lhs, rhs]}}
  %dx = clifford.fc_product_adjoint <3, 0, 0> both %g, %y, %w : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<20x32x48xf32>) -> tensor<8x64x32xf32>
  return %dx : tensor<8x64x32xf32>
}

// -----

// fc_product_pair_cotangents: the cotangent's features are the weights'
// output features ...
func.func @fc_pair_cotangents_out_features(%g: tensor<8x64x40xf32>, %w: tensor<20x32x48xf32>) -> tensor<44x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_cotangents' op cotangent has 40 features but the weights have 48 output features (axis 2)}}
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x64x40xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
  return %t : tensor<44x64x32xf32>
}

// -----

// ... the result has a row per path group ...
func.func @fc_pair_cotangents_groups(%g: tensor<8x64x48xf32>, %w: tensor<20x32x48xf32>) -> tensor<20x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_cotangents' op result has shape 20x64x32 but the path groups of #clifford.algebra<3, 0, 0>, cotangent and weights give 44x64x32}}
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x64x48xf32>, tensor<20x32x48xf32>) -> tensor<20x64x32xf32>
  return %t : tensor<20x64x32xf32>
}

// -----

// ... the weights are rank 3 with the algebra's paths ...
func.func @fc_pair_cotangents_rank(%g: tensor<8x64x48xf32>, %w: tensor<32x48xf32>) -> tensor<44x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_cotangents' op weights have rank 2 but take rank 3 ([paths, output features, input features] with transpose_weights)}}
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<32x48xf32>) -> tensor<44x64x32xf32>
  return %t : tensor<44x64x32xf32>
}

// -----

func.func @fc_pair_cotangents_paths(%g: tensor<8x64x48xf32>, %w: tensor<10x32x48xf32>) -> tensor<44x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_cotangents' op weights have 10 paths but #clifford.algebra<3, 0, 0> has 20}}
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<8x64x48xf32>, tensor<10x32x48xf32>) -> tensor<44x64x32xf32>
  return %t : tensor<44x64x32xf32>
}

// -----

// ... and the cotangent is a layer operand.
func.func @fc_pair_cotangents_blades(%g: tensor<4x64x48xf32>, %w: tensor<20x32x48xf32>) -> tensor<44x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_cotangents' op blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 blades (cotangent)}}
  %t = clifford.fc_product_pair_cotangents <3, 0, 0> %g, %w : (tensor<4x64x48xf32>, tensor<20x32x48xf32>) -> tensor<44x64x32xf32>
  return %t : tensor<44x64x32xf32>
}

// -----

// fc_product_pair_adjoint: a row of pairs per path group at other's
// positions ...
func.func @fc_pair_adjoint_pairs(%t: tensor<44x64x16xf32>, %y: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_adjoint' op pairs have shape 44x64x16 but the path groups of #clifford.algebra<3, 0, 0> and other give 44x64x32}}
  %r = clifford.fc_product_pair_adjoint <3, 0, 0> lhs %t, %y : (tensor<44x64x16xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %r : tensor<8x64x32xf32>
}

// -----

// ... the result has other's shape ...
func.func @fc_pair_adjoint_result(%t: tensor<44x64x32xf32>, %y: tensor<8x64x32xf32>) -> tensor<8x64x16xf32> {
  // expected-error@+1 {{'clifford.fc_product_pair_adjoint' op result has shape 8x64x16 but other has shape 8x64x32}}
  %r = clifford.fc_product_pair_adjoint <3, 0, 0> rhs %t, %y : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x16xf32>
  return %r : tensor<8x64x16xf32>
}

// -----

// ... and an operand (ODS).
func.func @fc_pair_adjoint_operand(%t: tensor<44x64x32xf32>, %y: tensor<8x64x32xf32>) -> tensor<8x64x32xf32> {
  // expected-error@+1 {{custom op 'clifford.fc_product_pair_adjoint' expected string or keyword containing one of the following enum values for attribute 'operand' [lhs, rhs]}}
  %r = clifford.fc_product_pair_adjoint <3, 0, 0> both %t, %y : (tensor<44x64x32xf32>, tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  return %r : tensor<8x64x32xf32>
}

// -----

// fc_product_weight_gradient: x and y of one shape ...
func.func @fc_product_weight_gradient_pair(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>, %y: tensor<8x64x16xf32>) -> tensor<20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op rhs has shape 8x64x16 but lhs has shape 8x64x32}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x16xf32>) -> tensor<20x32x48xf32>
  return %dw : tensor<20x32x48xf32>
}

// -----

// ... the cotangent's batch ...
func.func @fc_product_weight_gradient_batch(%g: tensor<8x60x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op cotangent has batch size 60 (axis 1) but lhs has 64 (axis 1)}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x : (tensor<8x60x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
  return %dw : tensor<20x32x48xf32>
}

// -----

// ... and the weights' shape, in the layout transpose_weights names.
func.func @fc_product_weight_gradient_result(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op result has shape 20x32x48 but the paths of #clifford.algebra<3, 0, 0>, lhs and cotangent give 20x48x32}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_weights = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
  return %dw : tensor<20x32x48xf32>
}

// -----

// batch_runs must divide the batch ...
func.func @fc_product_weight_gradient_runs(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<3x20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op batch_runs 3 must be positive and divide the batch of 64}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {batch_runs = 3} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<3x20x32x48xf32>
  return %dw : tensor<3x20x32x48xf32>
}

// -----

// ... and be positive ...
func.func @fc_product_weight_gradient_no_runs(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op batch_runs 0 must be positive and divide the batch of 64}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {batch_runs = 0} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
  return %dw : tensor<20x32x48xf32>
}

// -----

// ... and its runs lead the result.
func.func @fc_product_weight_gradient_runs_result(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x32x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op result has shape 20x32x48 but the paths of #clifford.algebra<3, 0, 0>, batch_runs, lhs and cotangent give 2x20x32x48}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {batch_runs = 2} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x48xf32>
  return %dw : tensor<20x32x48xf32>
}

// -----

// With transpose_cotangent the batch is the cotangent's last axis.
func.func @fc_product_weight_gradient_cotangent_batch(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x32x64xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op cotangent has batch size 48 (axis 2) but lhs has 64 (axis 1)}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_cotangent = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x32x64xf32>
  return %dw : tensor<20x32x64xf32>
}

// -----

// With transpose_pairs the batch is the pairs' last axis.
func.func @fc_product_weight_gradient_pairs_batch(%g: tensor<8x64x48xf32>, %x: tensor<8x64x32xf32>) -> tensor<20x64x48xf32> {
  // expected-error@+1 {{'clifford.fc_product_weight_gradient' op cotangent has batch size 64 (axis 1) but lhs has 32 (axis 2)}}
  %dw = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {transpose_pairs = true} : (tensor<8x64x48xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>) -> tensor<20x64x48xf32>
  return %dw : tensor<20x64x48xf32>
}
