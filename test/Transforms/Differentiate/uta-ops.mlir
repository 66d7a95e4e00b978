// uta-differentiate on one op at a time: the VJP rule of every uta op
// (dialects/UTA/IR/UTAVjp.cpp), with the forward values it reads and the
// sums that bring a broadcast operand's cotangent back to its shape. Each
// function f(inputs) -> y becomes @f_vjp(inputs, g) -> (d inputs...), g the
// cotangent of y; forward ops that the backward does not read are dropped.
// RUN: uta-opt %s -split-input-file --uta-differentiate | FileCheck %s

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

// d(a + b) = (g, g); b was broadcast over the rows, so its share is summed
// over them. The forward function is kept, private.
//       CHECK: func.func private @add(
// CHECK-LABEL: func.func @add_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)
//  CHECK-NEXT:   %[[DB:.*]] = uta.reduce_sum %[[G]] dims [0] : tensor<4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   return %[[G]], %[[DB]] : tensor<4x8xf32>, tensor<8xf32>
func.func @add(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = uta.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// d(a - b) = (g, -g); b [4, 1] was stretched along axis 1: summed over it,
// then reshaped back to [4, 1].
// CHECK-LABEL: func.func @sub_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<4x1xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[NEG:.*]] = uta.neg %[[G]] : tensor<4x8xf32>
//  CHECK-NEXT:   %[[SUM:.*]] = uta.reduce_sum %[[NEG]] dims [1] : tensor<4x8xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.reshape %[[SUM]] : tensor<4xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   return %[[G]], %[[DB]]
func.func @sub(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = uta.sub %a, %b : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// d(a * b) = (g b, g a), the broadcast b's share summed over the rows. The
// forward product is not read and is dropped.
// CHECK-LABEL: func.func @mul_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.mul %[[G]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[GA:.*]] = uta.mul %[[G]], %[[A]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.reduce_sum %[[GA]] dims [0] : tensor<4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @mul(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = uta.mul %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// d(a / b) = (g / b, -(g (a / b)) / b): the quotient is read from the
// forward.
// CHECK-LABEL: func.func @div_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[Q:.*]] = uta.div %[[A]], %[[B]]
//  CHECK-NEXT:   %[[DA:.*]] = uta.div %[[G]], %[[B]]
//  CHECK-NEXT:   %[[GQ:.*]] = uta.mul %[[G]], %[[Q]]
//  CHECK-NEXT:   %[[GQB:.*]] = uta.div %[[GQ]], %[[B]]
//  CHECK-NEXT:   %[[DB:.*]] = uta.neg %[[GQB]]
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @div(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.div %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// max: each side gets g times 0.5 (1 + sign(self - other)), 1 where it is
// the larger, 0.5 at ties (split evenly), 0 where it is the smaller.
// CHECK-LABEL: func.func @max_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[AB:.*]] = uta.sub %[[A]], %[[B]]
//  CHECK-NEXT:   %[[SAB:.*]] = uta.sign %[[AB]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[SAB1:.*]] = uta.add %[[SAB]], %[[ONE]]
//  CHECK-NEXT:   %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[MASKA:.*]] = uta.mul %[[SAB1]], %[[HALF]]
//  CHECK-NEXT:   %[[DA:.*]] = uta.mul %[[G]], %[[MASKA]]
//  CHECK-NEXT:   %[[BA:.*]] = uta.sub %[[B]], %[[A]]
//  CHECK-NEXT:   %[[SBA:.*]] = uta.sign %[[BA]]
//  CHECK-NEXT:   arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[SBA1:.*]] = uta.add %[[SBA]], %{{.*}}
//  CHECK-NEXT:   arith.constant dense<5.000000e-01>
//  CHECK-NEXT:   %[[MASKB:.*]] = uta.mul %[[SBA1]], %{{.*}}
//  CHECK-NEXT:   %[[DB:.*]] = uta.mul %[[G]], %[[MASKB]]
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @max(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.max %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// min: the same masks with the sides swapped, sign(other - self).
// CHECK-LABEL: func.func @min_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[BA:.*]] = uta.sub %[[B]], %[[A]]
//  CHECK-NEXT:   %[[SBA:.*]] = uta.sign %[[BA]]
//  CHECK-NEXT:   arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   uta.add %[[SBA]]
//  CHECK-NEXT:   arith.constant dense<5.000000e-01>
//  CHECK-NEXT:   %[[MASKA:.*]] = uta.mul
//  CHECK-NEXT:   %[[DA:.*]] = uta.mul %[[G]], %[[MASKA]]
//  CHECK-NEXT:   %[[AB:.*]] = uta.sub %[[A]], %[[B]]
//  CHECK-NEXT:   %[[SAB:.*]] = uta.sign %[[AB]]
//  CHECK-NEXT:   arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   uta.add %[[SAB]]
//  CHECK-NEXT:   arith.constant dense<5.000000e-01>
//  CHECK-NEXT:   %[[MASKB:.*]] = uta.mul
//  CHECK-NEXT:   %[[DB:.*]] = uta.mul %[[G]], %[[MASKB]]
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @min(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.min %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// pow: da = g e a^(e - 1 + [e == 0]) (0 where e == 0), db = g a^e log(a +
// [a == 0]) (0 where a == 0); [v == 0] is 1 - |sign(v)|. a^e is read from
// the forward.
// CHECK-LABEL: func.func @pow_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[E:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[P:.*]] = uta.pow %[[A]], %[[E]]
//  CHECK-NEXT:   %[[M1:.*]] = arith.constant dense<-1.000000e+00> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[EM1:.*]] = uta.add %[[E]], %[[M1]]
//  CHECK-NEXT:   %[[SE:.*]] = uta.sign %[[E]]
//  CHECK-NEXT:   %[[AE:.*]] = uta.abs %[[SE]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[EZ:.*]] = uta.sub %[[ONE]], %[[AE]]
//  CHECK-NEXT:   %[[LOW:.*]] = uta.add %[[EM1]], %[[EZ]]
//  CHECK-NEXT:   %[[PL:.*]] = uta.pow %[[A]], %[[LOW]]
//  CHECK-NEXT:   %[[EP:.*]] = uta.mul %[[E]], %[[PL]]
//  CHECK-NEXT:   %[[DA:.*]] = uta.mul %[[G]], %[[EP]]
//  CHECK-NEXT:   %[[SA:.*]] = uta.sign %[[A]]
//  CHECK-NEXT:   %[[AA:.*]] = uta.abs %[[SA]]
//  CHECK-NEXT:   %[[ONE2:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[AZ:.*]] = uta.sub %[[ONE2]], %[[AA]]
//  CHECK-NEXT:   %[[SAFE:.*]] = uta.add %[[A]], %[[AZ]]
//  CHECK-NEXT:   %[[LOG:.*]] = uta.log %[[SAFE]]
//  CHECK-NEXT:   %[[PLOG:.*]] = uta.mul %[[P]], %[[LOG]]
//  CHECK-NEXT:   %[[DE:.*]] = uta.mul %[[G]], %[[PLOG]]
//  CHECK-NEXT:   return %[[DA]], %[[DE]]
func.func @pow(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.pow %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>) -> tensor<16xf32>
//  CHECK-NEXT:   %[[DX:.*]] = uta.neg %[[G]] : tensor<16xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @neg(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.neg %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g sign(x): 0 at x = 0.
// CHECK-LABEL: func.func @abs_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[S:.*]] = uta.sign %[[X]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[S]]
//  CHECK-NEXT:   return %[[DX]]
func.func @abs(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.abs %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// sign is flat: a zero of the input's type, and g is not read.
// CHECK-LABEL: func.func @sign_vjp(
//  CHECK-NEXT:   %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
//  CHECK-NEXT:   return %[[Z]]
func.func @sign(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.sign %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g exp(x), exp(x) read from the forward.
// CHECK-LABEL: func.func @exp_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.exp %[[X]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[Y]]
//  CHECK-NEXT:   return %[[DX]]
func.func @exp(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.exp %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @log_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = uta.div %[[G]], %[[X]]
//  CHECK-NEXT:   return %[[DX]]
func.func @log(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.log %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// (0.5 g) / sqrt(x).
// CHECK-LABEL: func.func @sqrt_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.sqrt %[[X]]
//  CHECK-NEXT:   %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<1xf32>
//  CHECK-NEXT:   %[[HG:.*]] = uta.mul %[[G]], %[[HALF]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.div %[[HG]], %[[Y]]
//  CHECK-NEXT:   return %[[DX]]
func.func @sqrt(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.sqrt %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// (-0.5 g) y^3 with y = rsqrt(x).
// CHECK-LABEL: func.func @rsqrt_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.rsqrt %[[X]]
//  CHECK-NEXT:   %[[Y2:.*]] = uta.mul %[[Y]], %[[Y]]
//  CHECK-NEXT:   %[[Y3:.*]] = uta.mul %[[Y2]], %[[Y]]
//  CHECK-NEXT:   %[[C:.*]] = arith.constant dense<-5.000000e-01> : tensor<1xf32>
//  CHECK-NEXT:   %[[HG:.*]] = uta.mul %[[G]], %[[C]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[HG]], %[[Y3]]
//  CHECK-NEXT:   return %[[DX]]
func.func @rsqrt(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.rsqrt %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// (2 / sqrt(pi)) g exp(-x^2); 2 / sqrt(pi) = 1.12837923.
// CHECK-LABEL: func.func @erf_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[X2:.*]] = uta.mul %[[X]], %[[X]]
//  CHECK-NEXT:   %[[M1:.*]] = arith.constant dense<-1.000000e+00> : tensor<1xf32>
//  CHECK-NEXT:   %[[NX2:.*]] = uta.mul %[[X2]], %[[M1]]
//  CHECK-NEXT:   %[[GAUSS:.*]] = uta.exp %[[NX2]]
//  CHECK-NEXT:   %[[C:.*]] = arith.constant dense<1.12837923> : tensor<1xf32>
//  CHECK-NEXT:   %[[CG:.*]] = uta.mul %[[G]], %[[C]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[CG]], %[[GAUSS]]
//  CHECK-NEXT:   return %[[DX]]
func.func @erf(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.erf %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g (1 - y^2), y = tanh(x) read from the forward.
// CHECK-LABEL: func.func @tanh_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.tanh %[[X]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
//  CHECK-NEXT:   %[[Y2:.*]] = uta.mul %[[Y]], %[[Y]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.sub %[[ONE]], %[[Y2]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[SLOPE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @tanh(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.tanh %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g y (1 - y), y = sigmoid(x).
// CHECK-LABEL: func.func @sigmoid_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.sigmoid %[[X]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
//  CHECK-NEXT:   %[[OM:.*]] = uta.sub %[[ONE]], %[[Y]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.mul %[[Y]], %[[OM]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[SLOPE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @sigmoid(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.sigmoid %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g relu(sign(x)): 1 where x > 0, 0 elsewhere, 0 at x = 0 included.
// CHECK-LABEL: func.func @relu_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[S:.*]] = uta.sign %[[X]]
//  CHECK-NEXT:   %[[STEP:.*]] = uta.relu %[[S]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[STEP]]
//  CHECK-NEXT:   return %[[DX]]
func.func @relu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.relu %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// g s (1 + x (1 - s)), s = sigmoid(x) computed by the backward (the forward
// silu is not read).
// CHECK-LABEL: func.func @silu_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[S:.*]] = uta.sigmoid %[[X]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
//  CHECK-NEXT:   %[[OM:.*]] = uta.sub %[[ONE]], %[[S]]
//  CHECK-NEXT:   %[[XOM:.*]] = uta.mul %[[X]], %[[OM]]
//  CHECK-NEXT:   %[[ONE2:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
//  CHECK-NEXT:   %[[SH:.*]] = uta.add %[[XOM]], %[[ONE2]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.mul %[[S]], %[[SH]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[SLOPE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @silu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.silu %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// Exact GELU: g (Phi(x) + x phi(x)), Phi(x) = 0.5 (1 + erf(x / sqrt 2)),
// phi(x) = exp(-x^2 / 2) / sqrt(2 pi); 1 / sqrt 2 = 0.707106769,
// 1 / sqrt(2 pi) = 0.398942292.
// CHECK-LABEL: func.func @gelu_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[RS2:.*]] = arith.constant dense<0.707106769> : tensor<1xf32>
//  CHECK-NEXT:   %[[XS:.*]] = uta.mul %[[X]], %[[RS2]]
//  CHECK-NEXT:   %[[ERF:.*]] = uta.erf %[[XS]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[ERF1:.*]] = uta.add %[[ERF]], %[[ONE]]
//  CHECK-NEXT:   %[[HALF:.*]] = arith.constant dense<5.000000e-01>
//  CHECK-NEXT:   %[[CDF:.*]] = uta.mul %[[ERF1]], %[[HALF]]
//  CHECK-NEXT:   %[[X2:.*]] = uta.mul %[[X]], %[[X]]
//  CHECK-NEXT:   %[[MHALF:.*]] = arith.constant dense<-5.000000e-01>
//  CHECK-NEXT:   %[[HX2:.*]] = uta.mul %[[X2]], %[[MHALF]]
//  CHECK-NEXT:   %[[GAUSS:.*]] = uta.exp %[[HX2]]
//  CHECK-NEXT:   %[[NORM:.*]] = arith.constant dense<0.398942292>
//  CHECK-NEXT:   %[[PDF:.*]] = uta.mul %[[GAUSS]], %[[NORM]]
//  CHECK-NEXT:   %[[XPDF:.*]] = uta.mul %[[X]], %[[PDF]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.add %[[CDF]], %[[XPDF]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[SLOPE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @gelu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.gelu %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// Tanh GELU, t = tanh(c x (1 + k x^2)), c = sqrt(2 / pi) = 0.797884583,
// k = 0.044715: g (0.5 (1 + t) + x (1 - t^2) (0.5 c) (1 + 3 k x^2));
// 0.5 c = 0.398942292, 3 k = 0.134145.
// CHECK-LABEL: func.func @gelu_tanh_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<16xf32>, %[[G:arg[0-9]+]]: tensor<16xf32>)
//  CHECK-NEXT:   %[[X2:.*]] = uta.mul %[[X]], %[[X]]
//  CHECK-NEXT:   %[[K:.*]] = arith.constant dense<4.471500e-02>
//  CHECK-NEXT:   %[[KX2:.*]] = uta.mul %[[X2]], %[[K]]
//  CHECK-NEXT:   arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[KX21:.*]] = uta.add %[[KX2]], %{{.*}}
//  CHECK-NEXT:   %[[POLY:.*]] = uta.mul %[[X]], %[[KX21]]
//  CHECK-NEXT:   %[[C:.*]] = arith.constant dense<0.797884583>
//  CHECK-NEXT:   %[[INNER:.*]] = uta.mul %[[POLY]], %[[C]]
//  CHECK-NEXT:   %[[T:.*]] = uta.tanh %[[INNER]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[T1:.*]] = uta.add %[[ONE]], %[[T]]
//  CHECK-NEXT:   %[[HALF:.*]] = arith.constant dense<5.000000e-01>
//  CHECK-NEXT:   %[[LEFT:.*]] = uta.mul %[[T1]], %[[HALF]]
//  CHECK-NEXT:   %[[T2:.*]] = uta.mul %[[T]], %[[T]]
//  CHECK-NEXT:   %[[SECH2:.*]] = uta.sub %[[ONE]], %[[T2]]
//  CHECK-NEXT:   %[[K3:.*]] = arith.constant dense<1.341450e-01>
//  CHECK-NEXT:   %[[K3X2:.*]] = uta.mul %[[X2]], %[[K3]]
//  CHECK-NEXT:   arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[K3X21:.*]] = uta.add %[[K3X2]], %{{.*}}
//  CHECK-NEXT:   %[[HC:.*]] = arith.constant dense<0.398942292>
//  CHECK-NEXT:   %[[CHAIN:.*]] = uta.mul %[[K3X21]], %[[HC]]
//  CHECK-NEXT:   %[[XS:.*]] = uta.mul %[[X]], %[[SECH2]]
//  CHECK-NEXT:   %[[RIGHT:.*]] = uta.mul %[[XS]], %[[CHAIN]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.add %[[LEFT]], %[[RIGHT]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[G]], %[[SLOPE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @gelu_tanh(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = uta.gelu %x {tanh_approximation = true} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A cast's cotangent is cast back to the input's type.
// CHECK-LABEL: func.func @cast_to_f16_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf16>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DX:.*]] = uta.cast %[[G]] : tensor<4x8xf16> -> tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @cast_to_f16(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = uta.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// CHECK-LABEL: func.func @cast_from_bf16_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xbf16>, %[[G:arg[0-9]+]]: tensor<4x8xf32>) -> tensor<4x8xbf16>
//  CHECK-NEXT:   %[[DX:.*]] = uta.cast %[[G]] : tensor<4x8xf32> -> tensor<4x8xbf16>
//  CHECK-NEXT:   return %[[DX]]
func.func @cast_from_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %0 = uta.cast %x : tensor<4x8xbf16> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Reductions are f32 only: an f16 cotangent of a broadcast operand is
// summed in f32 and rounded once.
// CHECK-LABEL: func.func @add_f16_broadcast_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf16>, %[[B:arg[0-9]+]]: tensor<8xf16>, %[[G:arg[0-9]+]]: tensor<4x8xf16>)
//  CHECK-NEXT:   %[[G32:.*]] = uta.cast %[[G]] : tensor<4x8xf16> -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[SUM:.*]] = uta.reduce_sum %[[G32]] dims [0] : tensor<4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.cast %[[SUM]] : tensor<8xf32> -> tensor<8xf16>
//  CHECK-NEXT:   return %[[G]], %[[DB]]
func.func @add_f16_broadcast(%a: tensor<4x8xf16>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = uta.add %a, %b : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// C = A B: dA = g B^T and dB = A^T g, each one matmul that reads its
// operands as stored (transpose_b, transpose_a): no transpose is copied.
// CHECK-LABEL: func.func @matmul_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[G]], %[[B]] {transpose_b = true} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.matmul %[[A]], %[[G]] {transpose_a = true} : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @matmul(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = uta.matmul %a, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// C = A W^T with W [N, K]: dA = g W, dW = g^T A.
// CHECK-LABEL: func.func @matmul_transpose_b_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[W:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[G]], %[[W]] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.matmul %[[G]], %[[A]] {transpose_a = true} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DW]]
func.func @matmul_transpose_b(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = uta.matmul %a, %w {transpose_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// C = A^T B with A stored [K, M]: the cotangent of A in its own layout,
// dA^T = B g^T [K, M], and dB = A^T g reads A as stored.
// CHECK-LABEL: func.func @matmul_transpose_a_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<8x4xf32>, %[[B:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[B]], %[[G]] {transpose_b = true} : (tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.matmul %[[A]], %[[G]] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @matmul_transpose_a(%a: tensor<8x4xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = uta.matmul %a, %w {transpose_a = true} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Both stored transposed, C = A^T W^T: dA^T = W^T g^T, dW^T = g^T A^T.
// CHECK-LABEL: func.func @matmul_transpose_both_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<8x4xf32>, %[[W:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[W]], %[[G]] {transpose_a = true, transpose_b = true} : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.matmul %[[G]], %[[A]] {transpose_a = true, transpose_b = true} : (tensor<4x16xf32>, tensor<8x4xf32>) -> tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DW]]
func.func @matmul_transpose_both(%a: tensor<8x4xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = uta.matmul %a, %w {transpose_a = true, transpose_b = true} : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A rank-2 B shared by a batch of A: dB sums over the batch inside one GEMM
// over the 2 * 4 rows of A and g, flattened.
// CHECK-LABEL: func.func @matmul_batched_broadcast_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<2x4x8xf32>, %[[B:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<2x4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[G]], %[[B]] {transpose_b = true} : (tensor<2x4x16xf32>, tensor<8x16xf32>) -> tensor<2x4x8xf32>
//  CHECK-NEXT:   %[[AR:.*]] = uta.reshape %[[A]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
//  CHECK-NEXT:   %[[GR:.*]] = uta.reshape %[[G]] : tensor<2x4x16xf32> -> tensor<8x16xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.matmul %[[AR]], %[[GR]] {transpose_a = true} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @matmul_batched_broadcast(%a: tensor<2x4x8xf32>, %w: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
  %0 = uta.matmul %a, %w : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// The same with W stored transposed: dW = g^T A over the flattened rows.
// CHECK-LABEL: func.func @matmul_batched_transpose_b_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<2x4x8xf32>, %[[W:arg[0-9]+]]: tensor<16x8xf32>, %[[G:arg[0-9]+]]: tensor<2x4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[G]], %[[W]] : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
//  CHECK-NEXT:   %[[AR:.*]] = uta.reshape %[[A]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
//  CHECK-NEXT:   %[[GR:.*]] = uta.reshape %[[G]] : tensor<2x4x16xf32> -> tensor<8x16xf32>
//  CHECK-NEXT:   %[[DW:.*]] = uta.matmul %[[GR]], %[[AR]] {transpose_a = true} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DW]]
func.func @matmul_batched_transpose_b(%a: tensor<2x4x8xf32>, %w: tensor<16x8xf32>) -> tensor<2x4x16xf32> {
  %0 = uta.matmul %a, %w {transpose_b = true} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// A batch of A stored [K, M] under a rank-2 B: its rows do not flatten into
// M, so dB is the batched product, summed over the batch.
// CHECK-LABEL: func.func @matmul_batched_transpose_a_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<2x8x4xf32>, %[[B:arg[0-9]+]]: tensor<8x16xf32>, %[[G:arg[0-9]+]]: tensor<2x4x16xf32>)
//  CHECK-NEXT:   %[[DA:.*]] = uta.matmul %[[B]], %[[G]] {transpose_b = true} : (tensor<8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x8x4xf32>
//  CHECK-NEXT:   %[[P:.*]] = uta.matmul %[[A]], %[[G]] : (tensor<2x8x4xf32>, tensor<2x4x16xf32>) -> tensor<2x8x16xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.reduce_sum %[[P]] dims [0] : tensor<2x8x16xf32> -> tensor<8x16xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @matmul_batched_transpose_a(%a: tensor<2x8x4xf32>, %w: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
  %0 = uta.matmul %a, %w {transpose_a = true} : (tensor<2x8x4xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// A rank-2 A shared by a batch of B: its cotangent is summed over the batch.
// CHECK-LABEL: func.func @matmul_broadcast_lhs_vjp(
//  CHECK-SAME:     %[[A:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<3x8x16xf32>, %[[G:arg[0-9]+]]: tensor<3x4x16xf32>)
//  CHECK-NEXT:   %[[GB:.*]] = uta.matmul %[[G]], %[[B]] {transpose_b = true} : (tensor<3x4x16xf32>, tensor<3x8x16xf32>) -> tensor<3x4x8xf32>
//  CHECK-NEXT:   %[[DA:.*]] = uta.reduce_sum %[[GB]] dims [0] : tensor<3x4x8xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.matmul %[[A]], %[[G]] {transpose_a = true} : (tensor<4x8xf32>, tensor<3x4x16xf32>) -> tensor<3x8x16xf32>
//  CHECK-NEXT:   return %[[DA]], %[[DB]]
func.func @matmul_broadcast_lhs(%a: tensor<4x8xf32>, %w: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  %0 = uta.matmul %a, %w : (tensor<4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

// g given size-1 axes at the reduced dims, broadcast to the input.
// CHECK-LABEL: func.func @reduce_sum_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4xf32>)
//  CHECK-NEXT:   %[[K:.*]] = uta.reshape %[[G]] : tensor<4xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   %[[DX:.*]] = uta.broadcast_to %[[K]] : tensor<4x1xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = uta.reduce_sum %x dims [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// With keep_dims g already has the size-1 axes: no reshape.
// CHECK-LABEL: func.func @reduce_sum_keep_dims_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x1xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = uta.broadcast_to %[[G]] : tensor<4x1xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_sum_keep_dims(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = uta.reduce_sum %x dims [1] {keep_dims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// The mean over 2 * 8 = 16 elements: g / 16, broadcast.
// CHECK-LABEL: func.func @reduce_mean_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x4x8xf32>, %[[G:arg[0-9]+]]: tensor<4xf32>)
//  CHECK-NEXT:   %[[K:.*]] = uta.reshape %[[G]] : tensor<4xf32> -> tensor<1x4x1xf32>
//  CHECK-NEXT:   %[[C:.*]] = arith.constant dense<6.250000e-02> : tensor<1x1x1xf32>
//  CHECK-NEXT:   %[[S:.*]] = uta.mul %[[K]], %[[C]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.broadcast_to %[[S]] : tensor<1x4x1xf32> -> tensor<2x4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_mean(%x: tensor<2x4x8xf32>) -> tensor<4xf32> {
  %0 = uta.reduce_mean %x dims [0, 2] : tensor<2x4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The mean over 4 * 8 = 32 elements, kept dims.
// CHECK-LABEL: func.func @reduce_mean_keep_dims_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x4x8xf32>, %[[G:arg[0-9]+]]: tensor<2x1x1xf32>)
//  CHECK-NEXT:   %[[C:.*]] = arith.constant dense<3.125000e-02> : tensor<1x1x1xf32>
//  CHECK-NEXT:   %[[S:.*]] = uta.mul %[[G]], %[[C]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.broadcast_to %[[S]] : tensor<2x1x1xf32> -> tensor<2x4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_mean_keep_dims(%x: tensor<2x4x8xf32>) -> tensor<2x1x1xf32> {
  %0 = uta.reduce_mean %x dims [1, 2] {keep_dims = true} : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// g goes to the maxima, split evenly among ties: mask = 1 + sign(x - max)
// (1 at a maximum, 0 elsewhere), dx = mask (g / sum of mask).
// CHECK-LABEL: func.func @reduce_max_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<8xf32>)
//  CHECK-NEXT:   %[[MAX:.*]] = uta.reduce_max %[[X]] dims [0] : tensor<4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   %[[MAXK:.*]] = uta.reshape %[[MAX]] : tensor<8xf32> -> tensor<1x8xf32>
//  CHECK-NEXT:   %[[D:.*]] = uta.sub %[[X]], %[[MAXK]]
//  CHECK-NEXT:   %[[S:.*]] = uta.sign %[[D]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
//  CHECK-NEXT:   %[[MASK:.*]] = uta.add %[[S]], %[[ONE]]
//  CHECK-NEXT:   %[[TIES:.*]] = uta.reduce_sum %[[MASK]] dims [0] {keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
//  CHECK-NEXT:   %[[GK:.*]] = uta.reshape %[[G]] : tensor<8xf32> -> tensor<1x8xf32>
//  CHECK-NEXT:   %[[SHARE:.*]] = uta.div %[[GK]], %[[TIES]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[MASK]], %[[SHARE]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_max(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = uta.reduce_max %x dims [0] : tensor<4x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_max_keep_dims_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<1x8xf32>)
//  CHECK-NEXT:   %[[MAX:.*]] = uta.reduce_max %[[X]] dims [0] {keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
//  CHECK-NEXT:   %[[D:.*]] = uta.sub %[[X]], %[[MAX]]
//  CHECK-NEXT:   %[[S:.*]] = uta.sign %[[D]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[MASK:.*]] = uta.add %[[S]], %[[ONE]]
//  CHECK-NEXT:   %[[TIES:.*]] = uta.reduce_sum %[[MASK]] dims [0] {keep_dims = true}
//  CHECK-NEXT:   %[[SHARE:.*]] = uta.div %[[G]], %[[TIES]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[MASK]], %[[SHARE]]
//  CHECK-NEXT:   return %[[DX]]
func.func @reduce_max_keep_dims(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %0 = uta.reduce_max %x dims [0] {keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// y (g - sum over dim 1 of g y), y read from the forward.
// CHECK-LABEL: func.func @softmax_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8xf32>)
//  CHECK-NEXT:   %[[Y:.*]] = uta.softmax %[[X]] dim 1
//  CHECK-NEXT:   %[[GY:.*]] = uta.mul %[[G]], %[[Y]]
//  CHECK-NEXT:   %[[DOT:.*]] = uta.reduce_sum %[[GY]] dims [1] {keep_dims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   %[[C:.*]] = uta.sub %[[G]], %[[DOT]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[Y]], %[[C]]
//  CHECK-NEXT:   return %[[DX]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = uta.softmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The statistics are recomputed (the forward layer_norm is not read):
// xhat = (x - mean) rstd, rstd = rsqrt(var + eps). With gxhat = g w:
// dx = rstd (gxhat - mean(gxhat) - xhat mean(gxhat xhat)),
// dw = sum over the leading axes of g xhat, db = that of g.
// CHECK-LABEL: func.func @layer_norm_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x4x8xf32>, %[[W:arg[0-9]+]]: tensor<8xf32>, %[[B:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<2x4x8xf32>)
//  CHECK-SAME:     -> (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>)
//  CHECK-NEXT:   %[[MEAN:.*]] = uta.reduce_mean %[[X]] dims [2] {keep_dims = true} : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
//  CHECK-NEXT:   %[[CEN:.*]] = uta.sub %[[X]], %[[MEAN]]
//  CHECK-NEXT:   %[[SQ:.*]] = uta.mul %[[CEN]], %[[CEN]]
//  CHECK-NEXT:   %[[VAR:.*]] = uta.reduce_mean %[[SQ]] dims [2] {keep_dims = true}
//  CHECK-NEXT:   %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<1x1x1xf32>
//  CHECK-NEXT:   %[[VE:.*]] = uta.add %[[VAR]], %[[EPS]]
//  CHECK-NEXT:   %[[RSTD:.*]] = uta.rsqrt %[[VE]] : tensor<2x4x1xf32>
//  CHECK-NEXT:   %[[XHAT:.*]] = uta.mul %[[CEN]], %[[RSTD]]
//  CHECK-NEXT:   %[[GX:.*]] = uta.mul %[[G]], %[[W]] : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
//  CHECK-NEXT:   %[[GXX:.*]] = uta.mul %[[GX]], %[[XHAT]]
//  CHECK-NEXT:   %[[MGXX:.*]] = uta.reduce_mean %[[GXX]] dims [2] {keep_dims = true}
//  CHECK-NEXT:   %[[PROJ:.*]] = uta.mul %[[XHAT]], %[[MGXX]]
//  CHECK-NEXT:   %[[MGX:.*]] = uta.reduce_mean %[[GX]] dims [2] {keep_dims = true}
//  CHECK-NEXT:   %[[C1:.*]] = uta.sub %[[GX]], %[[MGX]]
//  CHECK-NEXT:   %[[C2:.*]] = uta.sub %[[C1]], %[[PROJ]]
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[RSTD]], %[[C2]]
//  CHECK-NEXT:   %[[GXH:.*]] = uta.mul %[[G]], %[[XHAT]]
//  CHECK-NEXT:   %[[DW:.*]] = uta.reduce_sum %[[GXH]] dims [0, 1] : tensor<2x4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.reduce_sum %[[G]] dims [0, 1] : tensor<2x4x8xf32> -> tensor<8xf32>
//  CHECK-NEXT:   return %[[DX]], %[[DW]], %[[DB]]
func.func @layer_norm(%x: tensor<2x4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %0 = uta.layer_norm %x, %w, %b axis 2 : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// Normalising the last two axes: the weight [4, 8] sums over axis 0 only.
// CHECK-LABEL: func.func @layer_norm_two_axes_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x4x8xf32>, %[[W:arg[0-9]+]]: tensor<4x8xf32>, %[[B:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<2x4x8xf32>)
//       CHECK:   uta.reduce_mean %[[X]] dims [1, 2] {keep_dims = true} : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
//       CHECK:   %[[DW:.*]] = uta.reduce_sum %{{.*}} dims [0] : tensor<2x4x8xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   %[[DB:.*]] = uta.reduce_sum %[[G]] dims [0] : tensor<2x4x8xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   return %{{.*}}, %[[DW]], %[[DB]]
func.func @layer_norm_two_axes(%x: tensor<2x4x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = uta.layer_norm %x, %w, %b axis 1 : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// The inverse permutation of [1, 2, 0] is [2, 0, 1].
// CHECK-LABEL: func.func @transpose_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<2x4x8xf32>, %[[G:arg[0-9]+]]: tensor<4x8x2xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = uta.transpose %[[G]] [2, 0, 1] : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @transpose(%x: tensor<2x4x8xf32>) -> tensor<4x8x2xf32> {
  %0 = uta.transpose %x [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  return %0 : tensor<4x8x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x8xf32>, %[[G:arg[0-9]+]]: tensor<32xf32>)
//  CHECK-NEXT:   %[[DX:.*]] = uta.reshape %[[G]] : tensor<32xf32> -> tensor<4x8xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = uta.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

// The adjoint of broadcasting [4, 1] to [2, 4, 8]: sum over the added axis 0
// and the stretched axis 2, then back to [4, 1].
// CHECK-LABEL: func.func @broadcast_to_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x1xf32>, %[[G:arg[0-9]+]]: tensor<2x4x8xf32>)
//  CHECK-NEXT:   %[[S:.*]] = uta.reduce_sum %[[G]] dims [0, 2] : tensor<2x4x8xf32> -> tensor<4xf32>
//  CHECK-NEXT:   %[[DX:.*]] = uta.reshape %[[S]] : tensor<4xf32> -> tensor<4x1xf32>
//  CHECK-NEXT:   return %[[DX]]
func.func @broadcast_to(%x: tensor<4x1xf32>) -> tensor<2x4x8xf32> {
  %0 = uta.broadcast_to %x : tensor<4x1xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
