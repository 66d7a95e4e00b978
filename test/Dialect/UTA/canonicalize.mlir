// Folds and canonicalization patterns of the uta ops (UTAFolds.cpp), one
// section each, with the cases that must not fold named @no_<fold>_<reason>.
// RUN: uta-opt %s -split-input-file -canonicalize | FileCheck %s

//===----------------------------------------------------------------------===//
// x + 0, x - 0, x * 1, x / 1
//===----------------------------------------------------------------------===//

// x + 0 -> x.
// CHECK-LABEL: func @add_zero
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.add
//       CHECK:   return %[[X]]
func.func @add_zero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %0 = uta.add %x, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// 0 + x -> x, and -0.0 counts as a zero (x + (-0.0) is exact for every x).
// CHECK-LABEL: func @add_zero_lhs
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf16>)
//   CHECK-NOT:   uta.add
//       CHECK:   return %[[X]]
func.func @add_zero_lhs(%x: tensor<4xf16>) -> tensor<4xf16> {
  %z = arith.constant dense<-0.0> : tensor<4xf16>
  %0 = uta.add %z, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A zero that broadcasts into x's shape leaves x's type alone: folds.
// CHECK-LABEL: func @add_zero_broadcast_into_x
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.add
//       CHECK:   return %[[X]]
func.func @add_zero_broadcast_into_x(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant dense<0.0> : tensor<8xf32>
  %0 = uta.add %x, %z : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// x + 0 where the zero broadcasts x to a larger shape: the result is not x.
// CHECK-LABEL: func @no_add_zero_broadcasting_x
//  CHECK-SAME:   (%[[X:.*]]: tensor<8xf32>)
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
//       CHECK:   %[[R:.*]] = uta.add %[[X]], %[[Z]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       CHECK:   return %[[R]]
func.func @no_add_zero_broadcasting_x(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %0 = uta.add %z, %x : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A constant that is not all zeros is not an identity.
// CHECK-LABEL: func @no_add_zero_not_all_zero
//       CHECK:   %[[R:.*]] = uta.add
//       CHECK:   return %[[R]]
func.func @no_add_zero_not_all_zero(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = uta.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// x - 0 -> x.
// CHECK-LABEL: func @sub_zero
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xbf16>)
//   CHECK-NOT:   uta.sub
//       CHECK:   return %[[X]]
func.func @sub_zero(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %z = arith.constant dense<0.0> : tensor<4xbf16>
  %0 = uta.sub %x, %z : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// 0 - x is not x (and not neg(x) either: 0 - (+0.0) is +0.0).
// CHECK-LABEL: func @no_sub_zero_lhs
//       CHECK:   %[[R:.*]] = uta.sub
//       CHECK:   return %[[R]]
func.func @no_sub_zero_lhs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %0 = uta.sub %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * 1 -> x.
// CHECK-LABEL: func @mul_one
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.mul
//       CHECK:   return %[[X]]
func.func @mul_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant dense<1.0> : tensor<f32>
  %0 = uta.mul %x, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// 1 * x -> x.
// CHECK-LABEL: func @mul_one_lhs
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf16>)
//   CHECK-NOT:   uta.mul
//       CHECK:   return %[[X]]
func.func @mul_one_lhs(%x: tensor<4xf16>) -> tensor<4xf16> {
  %one = arith.constant dense<1.0> : tensor<4xf16>
  %0 = uta.mul %one, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// x * 1 with a ones tensor that broadcasts x: the result is a larger tensor.
// CHECK-LABEL: func @no_mul_one_broadcasting_x
//       CHECK:   %[[R:.*]] = uta.mul
//       CHECK:   return %[[R]]
func.func @no_mul_one_broadcasting_x(%x: tensor<8xf32>) -> tensor<2x8xf32> {
  %one = arith.constant dense<1.0> : tensor<2x8xf32>
  %0 = uta.mul %x, %one : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// pow(x, 1) -> x.
// CHECK-LABEL: func @pow_one
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.pow
//       CHECK:   return %[[X]]
func.func @pow_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant dense<1.0> : tensor<f32>
  %0 = uta.pow %x, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// pow(1, x) is 1, not x: only the exponent 1 folds.
// CHECK-LABEL: func @no_pow_one_base
//       CHECK:   %[[R:.*]] = uta.pow
//       CHECK:   return %[[R]]
func.func @no_pow_one_base(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = uta.pow %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// pow(x, 1) with an exponent that broadcasts x: the result is larger.
// CHECK-LABEL: func @no_pow_one_broadcasting_x
//       CHECK:   %[[R:.*]] = uta.pow
//       CHECK:   return %[[R]]
func.func @no_pow_one_broadcasting_x(%x: tensor<8xf32>) -> tensor<2x8xf32> {
  %one = arith.constant dense<1.0> : tensor<2x8xf32>
  %0 = uta.pow %x, %one : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// erf(0) -> 0: the zero constant is the result.
// CHECK-LABEL: func @erf_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
//   CHECK-NOT:   uta.erf
//       CHECK:   return %[[Z]]
func.func @erf_zero() -> tensor<4xf32> {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %0 = uta.erf %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// erf of a non-zero constant stays: no constant folding of transcendentals.
// CHECK-LABEL: func @no_erf_nonzero
//       CHECK:   %[[R:.*]] = uta.erf
//       CHECK:   return %[[R]]
func.func @no_erf_nonzero() -> tensor<4xf32> {
  %c = arith.constant dense<0.5> : tensor<4xf32>
  %0 = uta.erf %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x / 1 -> x.
// CHECK-LABEL: func @div_one
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//   CHECK-NOT:   uta.div
//       CHECK:   return %[[X]]
func.func @div_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = uta.div %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 1 / x is a reciprocal, not x.
// CHECK-LABEL: func @no_div_one_lhs
//       CHECK:   %[[R:.*]] = uta.div
//       CHECK:   return %[[R]]
func.func @no_div_one_lhs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = uta.div %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x - (-0.0) -> x, under the same sign-of-zero decision as x + (+0.0)
// (UTAFolds.cpp): only x = -0.0 differs (IEEE gives +0.0).
// CHECK-LABEL: func @sub_minus_zero
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//   CHECK-NOT:   uta.sub
//       CHECK:   return %[[X]]
func.func @sub_minus_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant dense<-0.0> : tensor<4xf32>
  %0 = uta.sub %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * 0 is not 0: NaN * 0 and inf * 0 are NaN, and -2 * 0 is -0.0.
// CHECK-LABEL: func @no_mul_zero
//       CHECK:   %[[R:.*]] = uta.mul
//       CHECK:   return %[[R]]
func.func @no_mul_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %0 = uta.mul %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 0 / x is not 0: 0 / 0 is NaN.
// CHECK-LABEL: func @no_div_zero_lhs
//       CHECK:   %[[R:.*]] = uta.div
//       CHECK:   return %[[R]]
func.func @no_div_zero_lhs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %0 = uta.div %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// max(x, x) -> x and min(x, x) -> x.
// CHECK-LABEL: func @max_min_same
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//   CHECK-NOT:   uta.max
//   CHECK-NOT:   uta.min
//       CHECK:   return %[[X]], %[[X]]
func.func @max_min_same(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = uta.max %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = uta.min %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Patterns on neg
//===----------------------------------------------------------------------===//

// -----

// x + neg(y) -> x - y.
// CHECK-LABEL: func @add_neg_rhs
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<8xf32>)
//       CHECK:   %[[R:.*]] = uta.sub %[[X]], %[[Y]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
//   CHECK-NOT:   uta.neg
//       CHECK:   return %[[R]]
func.func @add_neg_rhs(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %n = uta.neg %y : tensor<8xf32>
  %0 = uta.add %x, %n : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// neg(x) + y -> y - x.
// CHECK-LABEL: func @add_neg_lhs
//  CHECK-SAME:   (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
//       CHECK:   %[[R:.*]] = uta.sub %[[Y]], %[[X]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
//       CHECK:   return %[[R]]
func.func @add_neg_lhs(%x: tensor<8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = uta.neg %x : tensor<8xf32>
  %0 = uta.add %n, %y : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// x - neg(y) -> x + y.
// CHECK-LABEL: func @sub_neg
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
//       CHECK:   %[[R:.*]] = uta.add %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//       CHECK:   return %[[R]]
func.func @sub_neg(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %n = uta.neg %y : tensor<4xf32>
  %0 = uta.sub %x, %n : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// neg(x) - y has no cheaper exact form: it stays.
// CHECK-LABEL: func @no_sub_neg_lhs
//       CHECK:   %[[N:.*]] = uta.neg
//       CHECK:   %[[R:.*]] = uta.sub %[[N]], %{{.*}}
//       CHECK:   return %[[R]]
func.func @no_sub_neg_lhs(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %n = uta.neg %x : tensor<4xf32>
  %0 = uta.sub %n, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * -1 -> neg(x), with the constant on either side.
// CHECK-LABEL: func @mul_minus_one
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[A:.*]] = uta.neg %[[X]] : tensor<4xf32>
//       CHECK:   %[[B:.*]] = uta.neg %[[X]] : tensor<4xf32>
//   CHECK-NOT:   uta.mul
//       CHECK:   return %[[A]], %[[B]]
func.func @mul_minus_one(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %m = arith.constant dense<-1.0> : tensor<4xf32>
  %0 = uta.mul %x, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = uta.mul %m, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// x * -1 where -1 broadcasts x to a larger shape cannot become neg(x).
// CHECK-LABEL: func @no_mul_minus_one_broadcasting_x
//       CHECK:   %[[R:.*]] = uta.mul
//   CHECK-NOT:   uta.neg
//       CHECK:   return %[[R]]
func.func @no_mul_minus_one_broadcasting_x(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %m = arith.constant dense<-1.0> : tensor<2x4xf32>
  %0 = uta.mul %x, %m : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// -----

// neg(neg x) -> x; a third neg stays.
// CHECK-LABEL: func @neg_neg
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[N:.*]] = uta.neg %[[X]]
//   CHECK-NOT:   uta.neg
//       CHECK:   return %[[X]], %[[N]]
func.func @neg_neg(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = uta.neg %x : tensor<4xf32>
  %1 = uta.neg %0 : tensor<4xf32>
  %2 = uta.neg %1 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// abs(abs x) -> abs x.
// CHECK-LABEL: func @abs_abs
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[A:.*]] = uta.abs %[[X]]
//   CHECK-NOT:   uta.abs
//       CHECK:   return %[[A]]
func.func @abs_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.abs %x : tensor<4xf32>
  %1 = uta.abs %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// abs(neg x) -> abs x.
// CHECK-LABEL: func @abs_neg
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xbf16>)
//       CHECK:   %[[A:.*]] = uta.abs %[[X]]
//   CHECK-NOT:   uta.neg
//       CHECK:   return %[[A]]
func.func @abs_neg(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = uta.neg %x : tensor<4xbf16>
  %1 = uta.abs %0 : tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// -----

// neg(abs x) is -|x|, not |x|: it stays.
// CHECK-LABEL: func @no_neg_abs
//       CHECK:   %[[A:.*]] = uta.abs
//       CHECK:   %[[N:.*]] = uta.neg %[[A]]
//       CHECK:   return %[[N]]
func.func @no_neg_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.abs %x : tensor<4xf32>
  %1 = uta.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// sign(sign x) -> sign x: ±1, ±0 and NaN are fixed points of sign.
// CHECK-LABEL: func @sign_sign
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf16>)
//       CHECK:   %[[S:.*]] = uta.sign %[[X]]
//   CHECK-NOT:   uta.sign
//       CHECK:   return %[[S]], %[[S]]
func.func @sign_sign(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %0 = uta.sign %x : tensor<4xf16>
  %1 = uta.sign %0 : tensor<4xf16>
  %2 = uta.sign %1 : tensor<4xf16>
  return %1, %2 : tensor<4xf16>, tensor<4xf16>
}

// -----

// sign of a zero splat -> that zero, its sign kept (sign(-0.0) is -0.0).
// CHECK-LABEL: func @sign_zero
//       CHECK:   %[[Z:.*]] = arith.constant dense<-0.000000e+00> : tensor<2x3xf32>
//   CHECK-NOT:   uta.sign
//       CHECK:   return %[[Z]]
func.func @sign_zero() -> tensor<2x3xf32> {
  %zero = arith.constant dense<-0.0> : tensor<2x3xf32>
  %0 = uta.sign %zero : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// sign of a non-zero constant stays: the folds do not evaluate the op.
// CHECK-LABEL: func @no_sign_nonzero
//       CHECK:   %[[R:.*]] = uta.sign
//       CHECK:   return %[[R]]
func.func @no_sign_nonzero() -> tensor<4xf32> {
  %c = arith.constant dense<-2.5> : tensor<4xf32>
  %0 = uta.sign %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// sign(neg x) is -sign(x), not sign(x): it stays.
// CHECK-LABEL: func @no_sign_neg
//       CHECK:   %[[N:.*]] = uta.neg
//       CHECK:   %[[S:.*]] = uta.sign %[[N]]
//       CHECK:   return %[[S]]
func.func @no_sign_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.neg %x : tensor<4xf32>
  %1 = uta.sign %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// relu(relu x) -> relu x.
// CHECK-LABEL: func @relu_relu
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[R:.*]] = uta.relu %[[X]]
//   CHECK-NOT:   uta.relu
//       CHECK:   return %[[R]]
func.func @relu_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.relu %x : tensor<4xf32>
  %1 = uta.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// relu(neg x) is not relu x.
// CHECK-LABEL: func @no_relu_neg
//       CHECK:   %[[N:.*]] = uta.neg
//       CHECK:   %[[R:.*]] = uta.relu %[[N]]
//       CHECK:   return %[[R]]
func.func @no_relu_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.neg %x : tensor<4xf32>
  %1 = uta.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// -----

// A transpose of either operand's last two axes becomes the operand's flag:
// x^T g reads x as stored, and a transposed operand that was already
// flagged reads its input plainly.
// CHECK-LABEL: func @matmul_transposed_operands
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x64x4xf32>, %[[G:.*]]: tensor<2x64x16xf32>, %[[W:.*]]: tensor<4x16xf32>)
//   CHECK-NOT:   uta.transpose
//       CHECK:   %[[A:.*]] = uta.matmul %[[X]], %[[G]] {transpose_a = true} : (tensor<2x64x4xf32>, tensor<2x64x16xf32>) -> tensor<2x4x16xf32>
//       CHECK:   %[[B:.*]] = uta.matmul %[[X]], %[[W]] : (tensor<2x64x4xf32>, tensor<4x16xf32>) -> tensor<2x64x16xf32>
//       CHECK:   return %[[A]], %[[B]]
func.func @matmul_transposed_operands(%x: tensor<2x64x4xf32>, %g: tensor<2x64x16xf32>, %w: tensor<4x16xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x64x16xf32>) {
  %xt = uta.transpose %x [0, 2, 1] : tensor<2x64x4xf32> -> tensor<2x4x64xf32>
  %0 = uta.matmul %xt, %g : (tensor<2x4x64xf32>, tensor<2x64x16xf32>) -> tensor<2x4x16xf32>
  %wt = uta.transpose %w [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  %1 = uta.matmul %x, %wt {transpose_b = true} : (tensor<2x64x4xf32>, tensor<16x4xf32>) -> tensor<2x64x16xf32>
  return %0, %1 : tensor<2x4x16xf32>, tensor<2x64x16xf32>
}

// -----

// Only a swap of the last two axes is a layout the engine reads; a
// transpose that moves a batch axis, or that rounds to TF32, stays.
// CHECK-LABEL: func @no_matmul_transpose_fold_other_axes
//       CHECK:   uta.transpose %{{.*}} [1, 0, 2]
//       CHECK:   uta.matmul %{{.*}}, %{{.*}} : (tensor<64x2x4xf32>, tensor<4x16xf32>)
//       CHECK:   uta.transpose %{{.*}} [1, 0] {round_to_tf32}
//       CHECK:   uta.matmul %{{.*}}, %{{.*}} {transpose_b = true}
func.func @no_matmul_transpose_fold_other_axes(%x: tensor<2x64x4xf32>, %w: tensor<4x16xf32>)
    -> (tensor<64x2x16xf32>, tensor<2x64x16xf32>) {
  %xt = uta.transpose %x [1, 0, 2] : tensor<2x64x4xf32> -> tensor<64x2x4xf32>
  %0 = uta.matmul %xt, %w : (tensor<64x2x4xf32>, tensor<4x16xf32>) -> tensor<64x2x16xf32>
  %wt = uta.transpose %w [1, 0] {round_to_tf32} : tensor<4x16xf32> -> tensor<16x4xf32>
  %1 = uta.matmul %x, %wt {transpose_b = true} : (tensor<2x64x4xf32>, tensor<16x4xf32>) -> tensor<2x64x16xf32>
  return %0, %1 : tensor<64x2x16xf32>, tensor<2x64x16xf32>
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

// -----

// The identity permutation is a no-op.
// CHECK-LABEL: func @transpose_identity
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3x4xf32>)
//   CHECK-NOT:   uta.transpose
//       CHECK:   return %[[X]]
func.func @transpose_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = uta.transpose %x [0, 1, 2] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A transpose that rounds to TF32 changes values: it is not folded away,
// even with the identity permutation, nor composed with another.
// CHECK-LABEL: func @transpose_round_to_tf32_stays
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3xf32>)
//       CHECK:   %[[R:.*]] = uta.transpose %[[X]] [0, 1] {round_to_tf32}
//       CHECK:   %[[S:.*]] = uta.transpose %[[X]] [1, 0] {round_to_tf32}
//       CHECK:   %[[T:.*]] = uta.transpose %[[S]] [1, 0] :
//       CHECK:   return %[[R]], %[[T]]
func.func @transpose_round_to_tf32_stays(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = uta.transpose %x [0, 1] {round_to_tf32} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = uta.transpose %x [1, 0] {round_to_tf32} : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = uta.transpose %1 [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  return %0, %2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// [1, 2, 0] then [1, 2, 0] is one transpose by [2, 0, 1]:
// [2,3,4] -> [3,4,2] -> [4,2,3], and [2,3,4] permuted by [2,0,1] is [4,2,3].
// CHECK-LABEL: func @transpose_transpose
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3x4xf32>)
//       CHECK:   %[[T:.*]] = uta.transpose %[[X]] [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
//   CHECK-NOT:   uta.transpose
//       CHECK:   return %[[T]]
func.func @transpose_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = uta.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = uta.transpose %0 [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// [1, 2, 0] then its inverse [2, 0, 1] is the identity: x itself.
// CHECK-LABEL: func @transpose_inverse
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3x4xf32>)
//   CHECK-NOT:   uta.transpose
//       CHECK:   return %[[X]]
func.func @transpose_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = uta.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = uta.transpose %0 [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// The inner transpose has another use: it stays for that use, while the
// outer one reads x directly. Here [1, 0, 2] then [0, 2, 1] is [1, 2, 0].
// CHECK-LABEL: func @transpose_transpose_multi_use
//  CHECK-SAME:   (%[[X:.*]]: tensor<2x3x4xf32>)
//   CHECK-DAG:   %[[A:.*]] = uta.transpose %[[X]] [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
//   CHECK-DAG:   %[[B:.*]] = uta.transpose %[[X]] [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
//       CHECK:   return %[[A]], %[[B]]
func.func @transpose_transpose_multi_use(%x: tensor<2x3x4xf32>) -> (tensor<3x2x4xf32>, tensor<3x4x2xf32>) {
  %0 = uta.transpose %x [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = uta.transpose %0 [0, 2, 1] : tensor<3x2x4xf32> -> tensor<3x4x2xf32>
  return %0, %1 : tensor<3x2x4xf32>, tensor<3x4x2xf32>
}

// -----

// A transposed splat is a splat.
// CHECK-LABEL: func @transpose_splat
//       CHECK:   %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<8x4xf32>
//   CHECK-NOT:   uta.transpose
//       CHECK:   return %[[C]]
func.func @transpose_splat() -> tensor<8x4xf32> {
  %c = arith.constant dense<2.5> : tensor<4x8xf32>
  %0 = uta.transpose %c [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A non-splat constant is not transposed at compile time (its data would
// have to be rewritten).
// CHECK-LABEL: func @no_transpose_non_splat
//       CHECK:   %[[T:.*]] = uta.transpose
//       CHECK:   return %[[T]]
func.func @no_transpose_non_splat() -> tensor<2x1xf32> {
  %c = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %0 = uta.transpose %c [1, 0] : tensor<1x2xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

//===----------------------------------------------------------------------===//
// Reshape and broadcast_to
//===----------------------------------------------------------------------===//

// -----

// Reshape to the same type is a no-op.
// CHECK-LABEL: func @reshape_same
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.reshape
//       CHECK:   return %[[X]]
func.func @reshape_same(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.reshape %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// reshape(reshape x) -> one reshape.
// CHECK-LABEL: func @reshape_reshape
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//       CHECK:   %[[R:.*]] = uta.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
//   CHECK-NOT:   uta.reshape
//       CHECK:   return %[[R]]
func.func @reshape_reshape(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = uta.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %1 = uta.reshape %0 : tensor<32xf32> -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// A reshape chain back to x's type is x.
// CHECK-LABEL: func @reshape_reshape_back
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf16>)
//   CHECK-NOT:   uta.reshape
//       CHECK:   return %[[X]]
func.func @reshape_reshape_back(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = uta.reshape %x : tensor<4x8xf16> -> tensor<32xf16>
  %1 = uta.reshape %0 : tensor<32xf16> -> tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}

// -----

// A reshaped constant is the same data in row-major order.
// CHECK-LABEL: func @reshape_constant
//       CHECK:   %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
//   CHECK-NOT:   uta.reshape
//       CHECK:   return %[[C]]
func.func @reshape_constant() -> tensor<3x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = uta.reshape %c : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// broadcast_to the same type is a no-op.
// CHECK-LABEL: func @broadcast_to_same
//  CHECK-SAME:   (%[[X:.*]]: tensor<4x8xf32>)
//   CHECK-NOT:   uta.broadcast_to
//       CHECK:   return %[[X]]
func.func @broadcast_to_same(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.broadcast_to %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// broadcast_to(broadcast_to x) -> one broadcast_to.
// CHECK-LABEL: func @broadcast_to_broadcast_to
//  CHECK-SAME:   (%[[X:.*]]: tensor<8xf32>)
//       CHECK:   %[[B:.*]] = uta.broadcast_to %[[X]] : tensor<8xf32> -> tensor<2x4x8xf32>
//   CHECK-NOT:   uta.broadcast_to
//       CHECK:   return %[[B]]
func.func @broadcast_to_broadcast_to(%x: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %0 = uta.broadcast_to %x : tensor<8xf32> -> tensor<1x8xf32>
  %1 = uta.broadcast_to %0 : tensor<1x8xf32> -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// -----

// A broadcast splat is a larger splat.
// CHECK-LABEL: func @broadcast_to_splat
//       CHECK:   %[[C:.*]] = arith.constant dense<-3.000000e+00> : tensor<2x4xf32>
//   CHECK-NOT:   uta.broadcast_to
//       CHECK:   return %[[C]]
func.func @broadcast_to_splat() -> tensor<2x4xf32> {
  %c = arith.constant dense<-3.0> : tensor<4xf32>
  %0 = uta.broadcast_to %c : tensor<4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A reshape of a broadcast is not a broadcast: nothing folds across kinds.
// CHECK-LABEL: func @no_reshape_broadcast_to_mixed
//       CHECK:   %[[B:.*]] = uta.broadcast_to
//       CHECK:   %[[R:.*]] = uta.reshape %[[B]]
//       CHECK:   return %[[R]]
func.func @no_reshape_broadcast_to_mixed(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = uta.broadcast_to %x : tensor<4xf32> -> tensor<2x4xf32>
  %1 = uta.reshape %0 : tensor<2x4xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

// -----

// A cast to the same type is a no-op.
// CHECK-LABEL: func @cast_same
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xbf16>)
//   CHECK-NOT:   uta.cast
//       CHECK:   return %[[X]]
func.func @cast_same(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = uta.cast %x : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// f16 -> f32 -> f16 is the identity: f32 holds every f16 exactly.
// CHECK-LABEL: func @cast_f16_f32_f16
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf16>)
//   CHECK-NOT:   uta.cast
//       CHECK:   return %[[X]]
func.func @cast_f16_f32_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = uta.cast %x : tensor<4xf16> -> tensor<4xf32>
  %1 = uta.cast %0 : tensor<4xf32> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// bf16 -> f32 -> f16 is the direct bf16 -> f16 cast: the widening step is
// exact, so the value is rounded once either way.
// CHECK-LABEL: func @cast_bf16_f32_f16
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xbf16>)
//       CHECK:   %[[C:.*]] = uta.cast %[[X]] : tensor<4xbf16> -> tensor<4xf16>
//   CHECK-NOT:   uta.cast
//       CHECK:   return %[[C]]
func.func @cast_bf16_f32_f16(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = uta.cast %x : tensor<4xbf16> -> tensor<4xf32>
  %1 = uta.cast %0 : tensor<4xf32> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// f32 -> f16 -> f32 drops bits: not the identity.
// CHECK-LABEL: func @no_cast_cast_narrowing
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[H:.*]] = uta.cast %[[X]] : tensor<4xf32> -> tensor<4xf16>
//       CHECK:   %[[F:.*]] = uta.cast %[[H]] : tensor<4xf16> -> tensor<4xf32>
//       CHECK:   return %[[F]]
func.func @no_cast_cast_narrowing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uta.cast %x : tensor<4xf32> -> tensor<4xf16>
  %1 = uta.cast %0 : tensor<4xf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f16 -> bf16 rounds (bf16 has fewer fraction bits), so f16 -> bf16 -> f32
// is not the direct f16 -> f32 cast.
// CHECK-LABEL: func @no_cast_cast_f16_bf16
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf16>)
//       CHECK:   %[[B:.*]] = uta.cast %[[X]] : tensor<4xf16> -> tensor<4xbf16>
//       CHECK:   %[[F:.*]] = uta.cast %[[B]] : tensor<4xbf16> -> tensor<4xf32>
//       CHECK:   return %[[F]]
func.func @no_cast_cast_f16_bf16(%x: tensor<4xf16>) -> tensor<4xf32> {
  %0 = uta.cast %x : tensor<4xf16> -> tensor<4xbf16>
  %1 = uta.cast %0 : tensor<4xbf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f32 -> bf16 -> f16 rounds twice, which can differ from f32 -> f16 once.
// CHECK-LABEL: func @no_cast_cast_double_rounding
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>)
//       CHECK:   %[[B:.*]] = uta.cast %[[X]] : tensor<4xf32> -> tensor<4xbf16>
//       CHECK:   %[[H:.*]] = uta.cast %[[B]] : tensor<4xbf16> -> tensor<4xf16>
//       CHECK:   return %[[H]]
func.func @no_cast_cast_double_rounding(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = uta.cast %x : tensor<4xf32> -> tensor<4xbf16>
  %1 = uta.cast %0 : tensor<4xbf16> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
