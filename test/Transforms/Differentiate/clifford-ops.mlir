// uta-differentiate on one clifford op at a time: the VJP rule of every op
// that has one (dialects/Clifford/IR/CliffordVjp.cpp), in Cl(2,0), Cl(3,0),
// the spacetime algebra Cl(1,3), the degenerate Cl(3,0,1) and, for the
// dual's sign, Cl(1,0) and Cl(4,0). The products are bilinear, so each
// operand's cotangent is a clifford.product_adjoint of g and the other
// operand, summed back over the axes that broadcasting stretched; the
// adjoints are themselves differentiable, which gives second derivatives.
// RUN: uta-opt %s -split-input-file --uta-differentiate | FileCheck %s

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

// z = x y: dx = adjoint_lhs(g, y), dy = adjoint_rhs(g, x). The forward
// product is not read.
//       CHECK: func.func private @geometric_cl30(
// CHECK-LABEL: func.func @geometric_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <3, 0, 0> geometric lhs %[[G]], %[[Y]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <3, 0, 0> geometric rhs %[[G]], %[[X]] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @geometric_cl30(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// One rotor [4, 1] times a batch [4, 32]: the rotor's adjoint has the batch
// shape and is summed over axis 1, back to [4, 1]; the batch's adjoint reads
// the rotor broadcast.
// CHECK-LABEL: func.func @geometric_broadcast_cl20_vjp(
//  CHECK-SAME:     %[[R:arg[0-9]+]]: tensor<4x1xf32>, %[[X:arg[0-9]+]]: tensor<4x32xf32>, %[[G:arg[0-9]+]]: tensor<4x32xf32>)
//  CHECK-NEXT:   %[[A:.*]] = clifford.product_adjoint <2, 0, 0> geometric lhs %[[G]], %[[X]] : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
//  CHECK-NEXT:   %[[S:.*]] = uta.reduce_sum %[[A]] dims [1] : tensor<4x32xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DR:.*]] = uta.reshape %[[S]] : tensor<4xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <2, 0, 0> geometric rhs %[[G]], %[[R]] : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
//  CHECK-NEXT:   return %[[DR]], %[[DX]]
func.func @geometric_broadcast_cl20(%r: tensor<4x1xf32>, %x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = clifford.geometric_product <2, 0, 0> %r, %x : (tensor<4x1xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// Blades last (blade_axis 1): the adjoints keep the axis, and the rotor
// [1, 4] is summed over axis 0.
// CHECK-LABEL: func.func @geometric_blades_last_cl20_vjp(
//  CHECK-SAME:     %[[R:arg[0-9]+]]: tensor<1x4xf32>, %[[X:arg[0-9]+]]: tensor<32x4xf32>, %[[G:arg[0-9]+]]: tensor<32x4xf32>)
//  CHECK-NEXT:   %[[A:.*]] = clifford.product_adjoint <2, 0, 0> geometric lhs %[[G]], %[[X]] {blade_axis = 1 : i64} : (tensor<32x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
//  CHECK-NEXT:   %[[S:.*]] = uta.reduce_sum %[[A]] dims [0] : tensor<32x4xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DR:.*]] = uta.reshape %[[S]] : tensor<4xf32> -> tensor<1x4xf32>
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <2, 0, 0> geometric rhs %[[G]], %[[R]] {blade_axis = 1 : i64} : (tensor<32x4xf32>, tensor<1x4xf32>) -> tensor<32x4xf32>
//  CHECK-NEXT:   return %[[DR]], %[[DX]]
func.func @geometric_blades_last_cl20(%r: tensor<1x4xf32>, %x: tensor<32x4xf32>) -> tensor<32x4xf32> {
  %0 = clifford.geometric_product <2, 0, 0> %r, %x {blade_axis = 1} : (tensor<1x4xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
  return %0 : tensor<32x4xf32>
}

// -----

// CHECK-LABEL: func.func @outer_cl13_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[Y:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <1, 3, 0> outer lhs %[[G]], %[[Y]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <1, 3, 0> outer rhs %[[G]], %[[X]]
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @outer_cl13(%x: tensor<16x8xf32>, %y: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.outer_product <1, 3, 0> %x, %y : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// In a degenerate algebra too: the adjoint is read off the Cayley terms,
// not from a metric identity.
// CHECK-LABEL: func.func @left_contraction_cl301_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[Y:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <3, 0, 1> left_contraction lhs %[[G]], %[[Y]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <3, 0, 1> left_contraction rhs %[[G]], %[[X]]
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @left_contraction_cl301(%x: tensor<16x8xf32>, %y: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.left_contraction <3, 0, 1> %x, %y : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// The scalar product's cotangent has one blade; the adjoints have all 8.
// CHECK-LABEL: func.func @scalar_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<1x16xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <3, 0, 0> scalar lhs %[[G]], %[[Y]] : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <3, 0, 0> scalar rhs %[[G]], %[[X]] : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @scalar_cl30(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<1x16xf32> {
  %0 = clifford.scalar_product <3, 0, 0> %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

// Blades last with a broadcast rhs [1, 4]: its adjoint [32, 4] is summed
// over the batch axis 0.
// CHECK-LABEL: func.func @scalar_broadcast_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<32x4xf32>, %[[Y:arg[0-9]+]]: tensor<1x4xf32>, %[[G:arg[0-9]+]]: tensor<32x1xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <2, 0, 0> scalar lhs %[[G]], %[[Y]] {blade_axis = 1 : i64} : (tensor<32x1xf32>, tensor<1x4xf32>) -> tensor<32x4xf32>
//  CHECK-NEXT:   %[[A:.*]] = clifford.product_adjoint <2, 0, 0> scalar rhs %[[G]], %[[X]] {blade_axis = 1 : i64} : (tensor<32x1xf32>, tensor<32x4xf32>) -> tensor<32x4xf32>
//  CHECK-NEXT:   %[[S:.*]] = uta.reduce_sum %[[A]] dims [0] : tensor<32x4xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DY:.*]] = uta.reshape %[[S]] : tensor<4xf32> -> tensor<1x4xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]]
func.func @scalar_broadcast_cl20(%x: tensor<32x4xf32>, %y: tensor<1x4xf32>) -> tensor<32x1xf32> {
  %0 = clifford.scalar_product <2, 0, 0> %x, %y {blade_axis = 1} : (tensor<32x4xf32>, tensor<1x4xf32>) -> tensor<32x1xf32>
  return %0 : tensor<32x1xf32>
}

// -----

// y = t reverse(r), t = r x: dt = adjoint_lhs(g, reverse(r)); r gets
// adjoint_lhs(dt, x) through t plus reverse(adjoint_rhs(g, t)) through its
// reverse, summed over the batch; x gets adjoint_rhs(dt, r). t is recomputed
// from r and x.
// CHECK-LABEL: func.func @sandwich_cl30_vjp(
//  CHECK-SAME:     %[[R:arg[0-9]+]]: tensor<8x1xf32>, %[[X:arg[0-9]+]]: tensor<8x64xf32>, %[[G:arg[0-9]+]]: tensor<8x64xf32>)
//  CHECK-NEXT:   %[[REV:.*]] = clifford.reverse <3, 0, 0> %[[R]] : tensor<8x1xf32>
//  CHECK-NEXT:   %[[DT:.*]] = clifford.product_adjoint <3, 0, 0> geometric lhs %[[G]], %[[REV]] : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
//  CHECK-NEXT:   %[[T:.*]] = clifford.geometric_product <3, 0, 0> %[[R]], %[[X]] : (tensor<8x1xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
//  CHECK-NEXT:   %[[DREV:.*]] = clifford.product_adjoint <3, 0, 0> geometric rhs %[[G]], %[[T]]
//  CHECK-NEXT:   %[[VIAREV:.*]] = clifford.reverse <3, 0, 0> %[[DREV]] : tensor<8x64xf32>
//  CHECK-NEXT:   %[[VIAT:.*]] = clifford.product_adjoint <3, 0, 0> geometric lhs %[[DT]], %[[X]]
//  CHECK-NEXT:   %[[SUM:.*]] = uta.add %[[VIAT]], %[[VIAREV]]
//  CHECK-NEXT:   %[[RS:.*]] = uta.reduce_sum %[[SUM]] dims [1] : tensor<8x64xf32> -> tensor<8xf32>
//  CHECK-NEXT:   %[[DR:.*]] = uta.reshape %[[RS]] : tensor<8xf32> -> tensor<8x1xf32>
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <3, 0, 0> geometric rhs %[[DT]], %[[R]] : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
//  CHECK-NEXT:   return %[[DR]], %[[DX]]
func.func @sandwich_cl30(%r: tensor<8x1xf32>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = clifford.sandwich <3, 0, 0> %r, %x : (tensor<8x1xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A motor of projective geometric algebra: the same rule, nothing to sum.
// CHECK-LABEL: func.func @sandwich_cl301_vjp(
//  CHECK-SAME:     %[[R:arg[0-9]+]]: tensor<16x4xf32>, %[[X:arg[0-9]+]]: tensor<16x4xf32>, %[[G:arg[0-9]+]]: tensor<16x4xf32>)
//  CHECK-NEXT:   %[[REV:.*]] = clifford.reverse <3, 0, 1> %[[R]]
//  CHECK-NEXT:   %[[DT:.*]] = clifford.product_adjoint <3, 0, 1> geometric lhs %[[G]], %[[REV]]
//  CHECK-NEXT:   %[[T:.*]] = clifford.geometric_product <3, 0, 1> %[[R]], %[[X]]
//  CHECK-NEXT:   %[[DREV:.*]] = clifford.product_adjoint <3, 0, 1> geometric rhs %[[G]], %[[T]]
//  CHECK-NEXT:   %[[VIAREV:.*]] = clifford.reverse <3, 0, 1> %[[DREV]]
//  CHECK-NEXT:   %[[VIAT:.*]] = clifford.product_adjoint <3, 0, 1> geometric lhs %[[DT]], %[[X]]
//  CHECK-NEXT:   %[[DR:.*]] = uta.add %[[VIAT]], %[[VIAREV]]
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <3, 0, 1> geometric rhs %[[DT]], %[[R]]
//  CHECK-NEXT:   return %[[DR]], %[[DX]]
func.func @sandwich_cl301(%r: tensor<16x4xf32>, %x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = clifford.sandwich <3, 0, 1> %r, %x : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Involutions, projection, dual and gate
//===----------------------------------------------------------------------===//

// The sign flips are diagonal, their own adjoints: the same op on g, with
// its attributes (blade_axis, grades).
// CHECK-LABEL: func.func @reverse_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.reverse <3, 0, 0> %[[G]] {blade_axis = 1 : i64} : tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reverse_cl30(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = clifford.reverse <3, 0, 0> %x {blade_axis = 1} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @grade_involution_cl13_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.grade_involution <1, 3, 0> %[[G]] : tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @grade_involution_cl13(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.grade_involution <1, 3, 0> %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @conjugate_cl301_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.conjugate <3, 0, 1> %[[G]] : tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @conjugate_cl301(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.conjugate <3, 0, 1> %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @grade_project_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.grade_project <2, 0, 0> %[[G]] grades [0, 2] : tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @grade_project_cl20(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = clifford.grade_project <2, 0, 0> %x grades [0, 2] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The dual D is a signed permutation of the blades with D^2 = I^-2, so its
// adjoint D^-1 is D I^2: negated where I^2 = -1. In Cl(3,0), I = e123 and
// I^2 = -1.
// CHECK-LABEL: func.func @dual_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<8x16xf32>)
//  CHECK-NEXT:   %[[D:.*]] = clifford.dual <3, 0, 0> %[[G]] : tensor<8x16xf32>
//  CHECK-NEXT:   %[[DX:.*]] = uta.neg %[[D]] : tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @dual_cl30(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = clifford.dual <3, 0, 0> %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Cl(2,0): e12 e12 = -1.
// CHECK-LABEL: func.func @dual_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x16xf32>, %[[G:arg[0-9]+]]: tensor<4x16xf32>)
//  CHECK-NEXT:   %[[D:.*]] = clifford.dual <2, 0, 0> %[[G]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.neg %[[D]]
//  CHECK-NEXT:   return %[[DX]]
func.func @dual_cl20(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = clifford.dual <2, 0, 0> %x : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Cl(1,3): I^2 = (-1)^(4*3/2) (-1)^3 = -1.
// CHECK-LABEL: func.func @dual_cl13_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[D:.*]] = clifford.dual <1, 3, 0> %[[G]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.neg %[[D]]
//  CHECK-NEXT:   return %[[DX]]
func.func @dual_cl13(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.dual <1, 3, 0> %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// Cl(4,0): I^2 = (-1)^(4*3/2) = +1, the dual is its own adjoint.
// CHECK-LABEL: func.func @dual_cl40_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.dual <4, 0, 0> %[[G]] : tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @dual_cl40(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.dual <4, 0, 0> %x : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// Cl(1,0): I = e1, I^2 = +1.
// CHECK-LABEL: func.func @dual_cl10_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x8xf32>, %[[G:arg[0-9]+]]: tensor<2x8xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.dual <1, 0, 0> %[[G]] : tensor<2x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @dual_cl10(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = clifford.dual <1, 0, 0> %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// y = x Phi(s), s = x_0: dx = g Phi(s) + e_0 phi(s) (sum over the blades
// of g x), one clifford.scalar_gate_adjoint of g and x (one kernel).
// CHECK-LABEL: func.func @scalar_gate_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x4x16xf32>, %[[G:arg[0-9]+]]: tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
//  CHECK-NEXT:   %[[DX:.*]] = clifford.scalar_gate_adjoint <3, 0, 0> %[[G]], %[[X]] : tensor<8x4x16xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @scalar_gate_cl30(%x: tensor<8x4x16xf32>) -> tensor<8x4x16xf32> {
  %0 = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4x16xf32>
  return %0 : tensor<8x4x16xf32>
}

// -----

// Blades last: the adjoint keeps the gate's blade axis.
// CHECK-LABEL: func.func @scalar_gate_blades_last_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x4xf32>, %[[G:arg[0-9]+]]: tensor<4x4xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.scalar_gate_adjoint <2, 0, 0> %[[G]], %[[X]] {blade_axis = 1 : i64} : tensor<4x4xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @scalar_gate_blades_last_cl20(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = clifford.scalar_gate <2, 0, 0> %x {blade_axis = 1} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

// dx and dy are the weighted adjoints; dw[f, p] sums path_adjoint [P, B, F]
// over the batch and transposes it. Cl(2,0) has 10 paths. B * F = 128 is
// well under 2^17 positions, but path_adjoint still sums runs of at least
// 4 P / 2^n = 10 batch elements itself, so that its result takes at most a
// quarter of an activation's memory: here the whole batch of 8, [10, 1, 16].
// CHECK-LABEL: func.func @weighted_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8x16xf32>, %[[Y:arg[0-9]+]]: tensor<4x8x16xf32>, %[[W:arg[0-9]+]]: tensor<16x10xf32>, %[[G:arg[0-9]+]]: tensor<4x8x16xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.weighted_product_adjoint <2, 0, 0> lhs %[[G]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.weighted_product_adjoint <2, 0, 0> rhs %[[G]], %[[X]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[X]], %[[Y]] {batch_chunk = 8 : i64} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<10x1x16xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1] : tensor<10x1x16xf32> -> tensor<10x16xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<10x16xf32> -> tensor<16x10xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @weighted_cl20(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<16x10xf32>) -> tensor<4x8x16xf32> {
  %0 = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<16x10xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// Cl(1,3) has 35 paths.
// CHECK-LABEL: func.func @weighted_cl13_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x2x4xf32>, %[[Y:arg[0-9]+]]: tensor<16x2x4xf32>, %[[W:arg[0-9]+]]: tensor<4x35xf32>, %[[G:arg[0-9]+]]: tensor<16x2x4xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.weighted_product_adjoint <1, 3, 0> lhs %[[G]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.weighted_product_adjoint <1, 3, 0> rhs %[[G]], %[[X]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <1, 3, 0> %[[G]], %[[X]], %[[Y]] {{.*}} -> tensor<35x1x4xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1] : tensor<35x1x4xf32> -> tensor<35x4xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<35x4xf32> -> tensor<4x35xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @weighted_cl13(%x: tensor<16x2x4xf32>, %y: tensor<16x2x4xf32>, %w: tensor<4x35xf32>) -> tensor<16x2x4xf32> {
  %0 = clifford.weighted_product <1, 3, 0> %x, %y, %w : (tensor<16x2x4xf32>, tensor<16x2x4xf32>, tensor<4x35xf32>) -> tensor<16x2x4xf32>
  return %0 : tensor<16x2x4xf32>
}

// -----

// Cl(3,0,1) has 34 paths (I^2 = 0 drops grade 4 times grade 4).
// CHECK-LABEL: func.func @weighted_cl301_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x2x4xf32>, %[[Y:arg[0-9]+]]: tensor<16x2x4xf32>, %[[W:arg[0-9]+]]: tensor<4x34xf32>, %[[G:arg[0-9]+]]: tensor<16x2x4xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.weighted_product_adjoint <3, 0, 1> lhs %[[G]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.weighted_product_adjoint <3, 0, 1> rhs %[[G]], %[[X]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <3, 0, 1> %[[G]], %[[X]], %[[Y]] {{.*}} -> tensor<34x1x4xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1]
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<34x4xf32> -> tensor<4x34xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @weighted_cl301(%x: tensor<16x2x4xf32>, %y: tensor<16x2x4xf32>, %w: tensor<4x34xf32>) -> tensor<16x2x4xf32> {
  %0 = clifford.weighted_product <3, 0, 1> %x, %y, %w : (tensor<16x2x4xf32>, tensor<16x2x4xf32>, tensor<4x34xf32>) -> tensor<16x2x4xf32>
  return %0 : tensor<16x2x4xf32>
}

// -----

// With B * F = 1001 * 300 = 2.29 * 2^17 positions, runs of floor(2.29) = 2
// batch elements would leave about 2^17 threads, but the memory bound asks
// for 4 P / 2^n = 10: [10, ceil(1001 / 10) = 101, 300]; the sum over the
// runs and the transpose follow as before.
// CHECK-LABEL: func.func @weighted_chunked_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x1001x300xf32>, %[[Y:arg[0-9]+]]: tensor<4x1001x300xf32>, %[[W:arg[0-9]+]]: tensor<300x10xf32>, %[[G:arg[0-9]+]]: tensor<4x1001x300xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.weighted_product_adjoint <2, 0, 0> lhs %[[G]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.weighted_product_adjoint <2, 0, 0> rhs %[[G]], %[[X]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[X]], %[[Y]] {batch_chunk = 10 : i64} : (tensor<4x1001x300xf32>, tensor<4x1001x300xf32>, tensor<4x1001x300xf32>) -> tensor<10x101x300xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1] : tensor<10x101x300xf32> -> tensor<10x300xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<10x300xf32> -> tensor<300x10xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @weighted_chunked_cl20(%x: tensor<4x1001x300xf32>, %y: tensor<4x1001x300xf32>, %w: tensor<300x10xf32>) -> tensor<4x1001x300xf32> {
  %0 = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x1001x300xf32>, tensor<4x1001x300xf32>, tensor<300x10xf32>) -> tensor<4x1001x300xf32>
  return %0 : tensor<4x1001x300xf32>
}

// -----

// B * F = 100000 * 128 = 97.7 * 2^17 positions: the runs are capped at 64
// batch elements, [10, ceil(100000 / 64) = 1563, 128].
// CHECK-LABEL: func.func @weighted_chunk_cap_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x100000x128xf32>, %[[Y:arg[0-9]+]]: tensor<4x100000x128xf32>, %[[W:arg[0-9]+]]: tensor<128x10xf32>, %[[G:arg[0-9]+]]: tensor<4x100000x128xf32>)
//       CHECK:   %[[PA:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[X]], %[[Y]] {batch_chunk = 64 : i64} : (tensor<4x100000x128xf32>, tensor<4x100000x128xf32>, tensor<4x100000x128xf32>) -> tensor<10x1563x128xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1] : tensor<10x1563x128xf32> -> tensor<10x128xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<10x128xf32> -> tensor<128x10xf32>
//  CHECK-NEXT:   return %{{.*}}, %{{.*}}, %[[DW]]
func.func @weighted_chunk_cap_cl20(%x: tensor<4x100000x128xf32>, %y: tensor<4x100000x128xf32>, %w: tensor<128x10xf32>) -> tensor<4x100000x128xf32> {
  %0 = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x100000x128xf32>, tensor<4x100000x128xf32>, tensor<128x10xf32>) -> tensor<4x100000x128xf32>
  return %0 : tensor<4x100000x128xf32>
}

// -----

// fc_product in Cl(1,0) (4 paths, Fin = 2, Fout = 5, B = 3): dx and dy are
// clifford.fc_product_adjoint of g with the other operand and the weights
// (one GEMM per result blade), dW clifford.fc_product_weight_gradient of g,
// x and y (one GEMM per path): no pair products are stored.
// CHECK-LABEL: func.func @fc_cl10_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x3x2xf32>, %[[Y:arg[0-9]+]]: tensor<2x3x2xf32>, %[[W:arg[0-9]+]]: tensor<4x2x5xf32>, %[[G:arg[0-9]+]]: tensor<2x3x5xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.fc_product_adjoint <1, 0, 0> lhs %[[G]], %[[Y]], %[[W]] : (tensor<2x3x5xf32>, tensor<2x3x2xf32>, tensor<4x2x5xf32>) -> tensor<2x3x2xf32>
//  CHECK-NEXT:   %[[DY:.*]] = clifford.fc_product_adjoint <1, 0, 0> rhs %[[G]], %[[X]], %[[W]] : (tensor<2x3x5xf32>, tensor<2x3x2xf32>, tensor<4x2x5xf32>) -> tensor<2x3x2xf32>
//  CHECK-NEXT:   %[[DW:.*]] = clifford.fc_product_weight_gradient <1, 0, 0> %[[G]], %[[X]], %[[Y]] : (tensor<2x3x5xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>) -> tensor<4x2x5xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @fc_cl10(%x: tensor<2x3x2xf32>, %y: tensor<2x3x2xf32>, %w: tensor<4x2x5xf32>) -> tensor<2x3x5xf32> {
  %0 = clifford.fc_product <1, 0, 0> %x, %y, %w : (tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// The same in Cl(2,0) (10 paths); with K-major weights [P, Fout, Fin], the
// ops take transpose_weights and the weight gradient comes out in that
// layout.
// CHECK-LABEL: func.func @fc_cl20_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8x3xf32>, %[[Y:arg[0-9]+]]: tensor<4x8x3xf32>, %[[W:arg[0-9]+]]: tensor<10x5x3xf32>, %[[G:arg[0-9]+]]: tensor<4x8x5xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.fc_product_adjoint <2, 0, 0> lhs %[[G]], %[[Y]], %[[W]] {transpose_weights = true}
//  CHECK-NEXT:   %[[DY:.*]] = clifford.fc_product_adjoint <2, 0, 0> rhs %[[G]], %[[X]], %[[W]] {transpose_weights = true}
//  CHECK-NEXT:   %[[DW:.*]] = clifford.fc_product_weight_gradient <2, 0, 0> %[[G]], %[[X]], %[[Y]] {transpose_weights = true} : (tensor<4x8x5xf32>, tensor<4x8x3xf32>, tensor<4x8x3xf32>) -> tensor<10x5x3xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DW]]
func.func @fc_cl20(%x: tensor<4x8x3xf32>, %y: tensor<4x8x3xf32>, %w: tensor<10x5x3xf32>) -> tensor<4x8x5xf32> {
  %0 = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x8x3xf32>, tensor<4x8x3xf32>, tensor<10x5x3xf32>) -> tensor<4x8x5xf32>
  return %0 : tensor<4x8x5xf32>
}

// -----

// fc_product's gradient ops are trilinear in (g, the other operand, W):
// with the cotangent c in the differentiated operand's place, the adjoint's
// rule is fc_product(c, y, W) for g, the other adjoint for y, and the
// weight gradient of (g, c, y) for W ...
// CHECK-LABEL: func.func @fc_adjoint_cl200_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<4x3x5xf32>, %[[Y:arg[0-9]+]]: tensor<4x3x2xf32>, %[[W:arg[0-9]+]]: tensor<10x2x5xf32>, %[[C:arg[0-9]+]]: tensor<4x3x2xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.fc_product <2, 0, 0> %[[C]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.fc_product_adjoint <2, 0, 0> rhs %[[G]], %[[C]], %[[W]]
//  CHECK-NEXT:   %[[DW:.*]] = clifford.fc_product_weight_gradient <2, 0, 0> %[[G]], %[[C]], %[[Y]]
//  CHECK-NEXT:   return %[[DG]], %[[DY]], %[[DW]]
func.func @fc_adjoint_cl200(%g: tensor<4x3x5xf32>, %y: tensor<4x3x2xf32>, %w: tensor<10x2x5xf32>) -> tensor<4x3x2xf32> {
  %0 = clifford.fc_product_adjoint <2, 0, 0> lhs %g, %y, %w : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<10x2x5xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// ... and with c in the weights' place (K-major here), the weight
// gradient's rule is fc_product(x, y, c) for g and the two adjoints for x
// and y, in the weights' layout.
// CHECK-LABEL: func.func @fc_weight_gradient_cl200_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<4x3x5xf32>, %[[X:arg[0-9]+]]: tensor<4x3x2xf32>, %[[Y:arg[0-9]+]]: tensor<4x3x2xf32>, %[[C:arg[0-9]+]]: tensor<10x5x2xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.fc_product <2, 0, 0> %[[X]], %[[Y]], %[[C]] {transpose_weights = true}
//  CHECK-NEXT:   %[[DX:.*]] = clifford.fc_product_adjoint <2, 0, 0> lhs %[[G]], %[[Y]], %[[C]] {transpose_weights = true}
//  CHECK-NEXT:   %[[DY:.*]] = clifford.fc_product_adjoint <2, 0, 0> rhs %[[G]], %[[X]], %[[C]] {transpose_weights = true}
//  CHECK-NEXT:   return %[[DG]], %[[DX]], %[[DY]]
func.func @fc_weight_gradient_cl200(%g: tensor<4x3x5xf32>, %x: tensor<4x3x2xf32>, %y: tensor<4x3x2xf32>) -> tensor<10x5x2xf32> {
  %0 = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %y {transpose_weights = true} : (tensor<4x3x5xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<10x5x2xf32>
  return %0 : tensor<10x5x2xf32>
}

// -----

// y = x r, r = rsqrt(mean over F of the grade's sum of x^2 + eps) per
// (grade, batch): dx = r (g - x r^2 c), c the same statistic of g x, is one
// clifford.grade_rms_norm_adjoint of g and x (the default epsilon elided).
// CHECK-LABEL: func.func @grade_rms_norm_cl30_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x4x16xf32>, %[[G:arg[0-9]+]]: tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
//  CHECK-NEXT:   %[[DX:.*]] = clifford.grade_rms_norm_adjoint <3, 0, 0> %[[G]], %[[X]] : tensor<8x4x16xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @grade_rms_norm_cl30(%x: tensor<8x4x16xf32>) -> tensor<8x4x16xf32> {
  %0 = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x4x16xf32>
  return %0 : tensor<8x4x16xf32>
}

// -----

// Cl(1,3), 16 blades in grades 1 | 4 | 6 | 4 | 1: the adjoint carries the
// norm's own epsilon.
// CHECK-LABEL: func.func @grade_rms_norm_cl13_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16x2x4xf32>, %[[G:arg[0-9]+]]: tensor<16x2x4xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = clifford.grade_rms_norm_adjoint <1, 3, 0> %[[G]], %[[X]] {epsilon = 9.99999974E-6 : f32} : tensor<16x2x4xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @grade_rms_norm_cl13(%x: tensor<16x2x4xf32>) -> tensor<16x2x4xf32> {
  %0 = clifford.grade_rms_norm <1, 3, 0> %x {epsilon = 1.0e-05 : f32} : tensor<16x2x4xf32>
  return %0 : tensor<16x2x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Adjoints: second derivatives of the products
//===----------------------------------------------------------------------===//

// R = adjoint_lhs(g, y) is bilinear in (g, y); with c its cotangent,
// dg = product(c, y) and dy = adjoint_rhs(g, c).
// CHECK-LABEL: func.func @product_adjoint_lhs_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<8x16xf32>, %[[Y:arg[0-9]+]]: tensor<8x16xf32>, %[[C:arg[0-9]+]]: tensor<8x16xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.geometric_product <3, 0, 0> %[[C]], %[[Y]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <3, 0, 0> geometric rhs %[[G]], %[[C]]
//  CHECK-NEXT:   return %[[DG]], %[[DY]]
func.func @product_adjoint_lhs(%g: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// R = adjoint_rhs(g, x): dg = product(x, c), dx = adjoint_lhs(g, c).
// CHECK-LABEL: func.func @product_adjoint_rhs_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<16x8xf32>, %[[X:arg[0-9]+]]: tensor<16x8xf32>, %[[C:arg[0-9]+]]: tensor<16x8xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.outer_product <1, 3, 0> %[[X]], %[[C]]
//  CHECK-NEXT:   %[[DX:.*]] = clifford.product_adjoint <1, 3, 0> outer lhs %[[G]], %[[C]]
//  CHECK-NEXT:   return %[[DG]], %[[DX]]
func.func @product_adjoint_rhs(%g: tensor<16x8xf32>, %x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = clifford.product_adjoint <1, 3, 0> outer rhs %g, %x : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// The scalar product's adjoint: dg is a scalar product, one blade.
// CHECK-LABEL: func.func @product_adjoint_scalar_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<1x16xf32>, %[[Y:arg[0-9]+]]: tensor<16x16xf32>, %[[C:arg[0-9]+]]: tensor<16x16xf32>) -> (tensor<1x16xf32>, tensor<16x16xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.scalar_product <3, 0, 1> %[[C]], %[[Y]] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
//  CHECK-NEXT:   %[[DY:.*]] = clifford.product_adjoint <3, 0, 1> scalar rhs %[[G]], %[[C]] : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
//  CHECK-NEXT:   return %[[DG]], %[[DY]]
func.func @product_adjoint_scalar(%g: tensor<1x16xf32>, %y: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = clifford.product_adjoint <3, 0, 1> scalar lhs %g, %y : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// A broadcast other operand [4, 1]: its cotangent is summed over axis 1.
// CHECK-LABEL: func.func @product_adjoint_broadcast_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<4x32xf32>, %[[Y:arg[0-9]+]]: tensor<4x1xf32>, %[[C:arg[0-9]+]]: tensor<4x32xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.left_contraction <2, 0, 0> %[[C]], %[[Y]] : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
//  CHECK-NEXT:   %[[A:.*]] = clifford.product_adjoint <2, 0, 0> left_contraction rhs %[[G]], %[[C]]
//  CHECK-NEXT:   %[[S:.*]] = uta.reduce_sum %[[A]] dims [1] : tensor<4x32xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DY:.*]] = uta.reshape %[[S]] : tensor<4xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   return %[[DG]], %[[DY]]
func.func @product_adjoint_broadcast(%g: tensor<4x32xf32>, %y: tensor<4x1xf32>) -> tensor<4x32xf32> {
  %0 = clifford.product_adjoint <2, 0, 0> left_contraction lhs %g, %y : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// R = weighted_adjoint_lhs(g, y, w), trilinear in (g, y, w): dg is the
// weighted product of c and y, dy = weighted_adjoint_rhs(g, c, w), and dw
// the path sums of (g, c, y).
// CHECK-LABEL: func.func @weighted_adjoint_lhs_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<4x8x16xf32>, %[[Y:arg[0-9]+]]: tensor<4x8x16xf32>, %[[W:arg[0-9]+]]: tensor<16x10xf32>, %[[C:arg[0-9]+]]: tensor<4x8x16xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.weighted_product <2, 0, 0> %[[C]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DY:.*]] = clifford.weighted_product_adjoint <2, 0, 0> rhs %[[G]], %[[C]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[C]], %[[Y]] {{.*}} -> tensor<10x1x16xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1]
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<10x16xf32> -> tensor<16x10xf32>
//  CHECK-NEXT:   return %[[DG]], %[[DY]], %[[DW]]
func.func @weighted_adjoint_lhs(%g: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<16x10xf32>) -> tensor<4x8x16xf32> {
  %0 = clifford.weighted_product_adjoint <2, 0, 0> lhs %g, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<16x10xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// R = weighted_adjoint_rhs(g, x, w): dg = weighted_product(x, c, w),
// dx = weighted_adjoint_lhs(g, c, w), dw the path sums of (g, x, c).
// CHECK-LABEL: func.func @weighted_adjoint_rhs_vjp(
//  CHECK-SAME:     %[[G:arg[0-9]+]]: tensor<8x2x4xf32>, %[[X:arg[0-9]+]]: tensor<8x2x4xf32>, %[[W:arg[0-9]+]]: tensor<4x20xf32>, %[[C:arg[0-9]+]]: tensor<8x2x4xf32>)
//  CHECK-NEXT:   %[[DG:.*]] = clifford.weighted_product <3, 0, 0> %[[X]], %[[C]], %[[W]]
//  CHECK-NEXT:   %[[DX:.*]] = clifford.weighted_product_adjoint <3, 0, 0> lhs %[[G]], %[[C]], %[[W]]
//  CHECK-NEXT:   %[[PA:.*]] = clifford.path_adjoint <3, 0, 0> %[[G]], %[[X]], %[[C]] {{.*}} -> tensor<20x1x4xf32>
//  CHECK-NEXT:   %[[PS:.*]] = uta.reduce_sum %[[PA]] dims [1]
//  CHECK-NEXT:   %[[DW:.*]] = uta.transpose %[[PS]] [1, 0] : tensor<20x4xf32> -> tensor<4x20xf32>
//  CHECK-NEXT:   return %[[DG]], %[[DX]], %[[DW]]
func.func @weighted_adjoint_rhs(%g: tensor<8x2x4xf32>, %x: tensor<8x2x4xf32>, %w: tensor<4x20xf32>) -> tensor<8x2x4xf32> {
  %0 = clifford.weighted_product_adjoint <3, 0, 0> rhs %g, %x, %w : (tensor<8x2x4xf32>, tensor<8x2x4xf32>, tensor<4x20xf32>) -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

